"""Arrays whose dtype equals, but is not, NumPy's own dtype object (as
unpickled arrays have theirs) take the kernels as any other."""

import pickle

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import links as L


def _unpickled(a):
    b = pickle.loads(pickle.dumps(a))
    assert b.dtype == a.dtype and b.dtype is not a.dtype
    return b


def _random(shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(
        numpy.float32)


_RELU = ('relu_forward', 'relu_backward')
_BATCH_NORMALIZATION = ('batch_normalization_forward',
                        'batch_normalization_backward')
_SOFTMAX_CROSS_ENTROPY = ('softmax_cross_entropy_forward',
                          'softmax_cross_entropy_backward')

# (function, its inputs, the kernels it runs forward and backward)
CASES = {
    'batch_normalization': (
        lambda x, g, b: F.batch_normalization(x, g, b),
        lambda: [_random((4, 3, 5, 5)), _random(3, 1) + 2, _random(3, 2)],
        _BATCH_NORMALIZATION),
    'softmax_cross_entropy': (
        lambda x: F.softmax_cross_entropy(
            x, numpy.array([0, 2, 1, 1], numpy.int32)),
        lambda: [_random((4, 3))],
        _SOFTMAX_CROSS_ENTROPY),
    'max_pooling_2d': (
        lambda x: F.max_pooling_2d(x, 2),
        lambda: [_random((2, 3, 6, 6))],
        ('max_pooling_forward', 'max_pooling_backward')),
    'linear_relu': (
        lambda x, w: F.relu(F.linear(x, w)),
        lambda: [_random((5, 4)), _random((3, 4), 1)],
        ('gemm',) * 3 + _RELU),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_kernels_take_unpickled_arrays(name, run_both):
    func, make, kernels = CASES[name]
    arrays = [_unpickled(a) for a in make()]
    (y0, g0), (y1, g1) = run_both(func, *arrays, kernels=kernels)
    numpy.testing.assert_allclose(y1, y0, rtol=1e-5, atol=1e-6)
    for a, b in zip(g1, g0):
        numpy.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_unpickled_link_with_batch_normalization_trains(in_both_modes):
    model = chainer.Sequential(L.Linear(3, 4), L.BatchNormalization(4),
                               F.relu, L.Linear(4, 2))
    x = _random((6, 3))
    t = numpy.array([0, 1, 1, 0, 1, 0], numpy.int32)

    def compute():
        copy = pickle.loads(pickle.dumps(model))
        loss = F.softmax_cross_entropy(copy(x), t)
        loss.backward()
        return float(loss.array), copy[0].W.grad
    losses = in_both_modes(
        compute, ('gemm',) + _BATCH_NORMALIZATION + _RELU
        + _SOFTMAX_CROSS_ENTROPY)
    numpy.testing.assert_allclose(losses[1][0], losses[0][0], rtol=1e-6)
    numpy.testing.assert_allclose(losses[1][1], losses[0][1], rtol=1e-5,
                                  atol=1e-6)
