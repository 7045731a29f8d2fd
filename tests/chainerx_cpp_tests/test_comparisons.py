"""The comparisons of the NumPy path with the kernels fail where the kernels
did not run.

An operation whose kernel refuses a case runs its NumPy code, which then
agrees with itself: ``in_both_modes`` (and ``run_both``) must see that the
kernels named ran, for one case of each kernel family.
"""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import optimizers


def _uniform(shape, seed):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype('f')


def _gradients(func, *arrays):
    # A computation of the output of func and the gradients of its inputs.
    def compute():
        xs = [chainer.Variable(a.copy()) for a in arrays]
        y = func(*xs)
        y.grad = numpy.ones_like(y.array)
        y.backward()
        return [y.array] + [x.grad for x in xs]
    return compute


def _adam_steps():
    link = chainer.Link()
    with link.init_scope():
        link.w = chainer.Parameter(_uniform((3, 4), 0))
    optimizer = optimizers.Adam()
    optimizer.setup(link)
    for seed in (1, 2):
        link.w.grad = _uniform((3, 4), seed)
        optimizer.update()
    return [link.w.array]


_CONVOLUTION = ('convolution_forward', 'convolution_backward_data',
                'convolution_backward_weights')

# One case of each kernel family: (its computation, the kernels it runs).
_FAMILIES = {
    'convolution': (
        _gradients(lambda x, W: F.convolution_2d(x, W, pad=1),
                   _uniform((2, 3, 5, 5), 0), _uniform((4, 3, 3, 3), 1)),
        _CONVOLUTION),
    'grouped_convolution': (
        _gradients(lambda x, W: F.convolution_2d(x, W, groups=2),
                   _uniform((2, 4, 5, 5), 0), _uniform((6, 2, 3, 3), 1)),
        _CONVOLUTION),
    'deconvolution': (
        _gradients(lambda x, W: F.deconvolution_2d(x, W, stride=2),
                   _uniform((2, 3, 4, 4), 0), _uniform((3, 2, 3, 3), 1)),
        _CONVOLUTION),
    'linear': (
        _gradients(F.linear, _uniform((5, 4), 0), _uniform((3, 4), 1)),
        ('gemm',)),
    'batch_normalization': (
        _gradients(F.batch_normalization, _uniform((4, 3, 2, 2), 0),
                   _uniform((3,), 1), _uniform((3,), 2)),
        ('batch_normalization_forward', 'batch_normalization_backward')),
    'softmax': (
        _gradients(F.log_softmax, _uniform((4, 5), 0)),
        ('softmax_forward', 'softmax_backward')),
    'softmax_cross_entropy': (
        _gradients(lambda x: F.softmax_cross_entropy(
            x, numpy.array([0, 4, 2, 1], numpy.int32)), _uniform((4, 5), 0)),
        ('softmax_cross_entropy_forward', 'softmax_cross_entropy_backward')),
    'max_pooling': (
        _gradients(lambda x: F.max_pooling_2d(x, 2),
                   _uniform((2, 3, 4, 4), 0)),
        ('max_pooling_forward', 'max_pooling_backward')),
    'average_pooling': (
        _gradients(lambda x: F.average_pooling_2d(x, 2),
                   _uniform((2, 3, 4, 4), 0)),
        ('average_pooling_forward', 'average_pooling_backward')),
    'activation': (
        _gradients(F.sigmoid, _uniform((3, 4), 0)),
        ('sigmoid_forward', 'sigmoid_backward')),
    'lstm': (
        _gradients(lambda c, x: F.lstm(c, x)[1],
                   _uniform((2, 3), 0), _uniform((2, 12), 1)),
        ('lstm_forward', 'lstm_backward')),
    'embed_id': (
        _gradients(lambda W: F.embed_id(numpy.array([2, 0, 2], numpy.int32),
                                        W), _uniform((4, 3), 0)),
        ('embed_id_backward',)),
    'channel_sum': (
        _gradients(lambda x: F.sum(x, axis=(0, 2, 3)),
                   _uniform((2, 3, 4, 4), 0)),
        ('channel_sum',)),
    'optimizer': (_adam_steps, ('adam_update',)),
}


@pytest.mark.parametrize('family', sorted(_FAMILIES))
def test_the_kernels_run(family, in_both_modes):
    compute, kernels = _FAMILIES[family]
    expected, actual = in_both_modes(compute, kernels)
    for e, a in zip(expected, actual):
        numpy.testing.assert_allclose(e, a, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize('family', sorted(_FAMILIES))
def test_a_comparison_fails_where_the_kernels_refuse(
        family, in_both_modes, kernel_calls):
    compute, kernels = _FAMILIES[family]
    kernel_calls.refuse(*kernels)
    # The results agree, both from the NumPy path...
    expected, actual = in_both_modes(compute, (), refused=kernels)
    for e, a in zip(expected, actual):
        numpy.testing.assert_array_equal(e, a)
    # ...and a comparison that expects the kernels fails.
    with pytest.raises(AssertionError, match='refused'):
        in_both_modes(compute, kernels)


def test_a_comparison_fails_where_the_operation_skips_the_kernels(
        in_both_modes):
    # A float64 convolution runs on NumPy without asking the kernels.
    x = _uniform((2, 3, 5, 5), 0).astype(numpy.float64)
    W = _uniform((4, 3, 3, 3), 1).astype(numpy.float64)
    compute = _gradients(F.convolution_2d, x, W)
    with pytest.raises(AssertionError, match='did not run'):
        in_both_modes(compute, _CONVOLUTION)
    in_both_modes(compute, ())


def test_a_comparison_fails_where_a_kernel_runs_fewer_times(in_both_modes):
    # Forward and the gradient of W: no product for the gradient of a
    # constant x.
    compute = _gradients(lambda W: F.linear(_uniform((5, 4), 0), W),
                         _uniform((3, 4), 1))
    in_both_modes(compute, ('gemm',) * 2)
    with pytest.raises(AssertionError, match='did not run'):
        in_both_modes(compute, ('gemm',) * 3)


def test_a_comparison_fails_where_kernels_run_that_should_not(
        in_both_modes):
    compute = _gradients(F.relu, _uniform((3, 4), 0))
    with pytest.raises(AssertionError, match='ran where none should'):
        in_both_modes(compute, ())
