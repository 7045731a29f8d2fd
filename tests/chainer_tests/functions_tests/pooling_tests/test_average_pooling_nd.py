import itertools

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.pooling import average_pooling_nd
from chainer import gradient_check
from chainer import testing


def _as_tuple(v, n):
    return tuple(v) if isinstance(v, tuple) else (v,) * n


def _reference(x, ksize, stride, pad, pad_value):
    # Mean of each window; padding counts as zeros, or not at all.
    ndim = x.ndim - 2
    ksize, pad = _as_tuple(ksize, ndim), _as_tuple(pad, ndim)
    stride = ksize if stride is None else _as_tuple(stride, ndim)
    outs = [(d + 2 * p - k) // s + 1
            for d, k, s, p in zip(x.shape[2:], ksize, stride, pad)]
    inner = (slice(None), slice(None)) + tuple(
        slice(p, p + d) for p, d in zip(pad, x.shape[2:]))
    padded = numpy.zeros(x.shape[:2] + tuple(
        d + 2 * p for d, p in zip(x.shape[2:], pad)))
    padded[inner] = x
    counts = numpy.zeros(padded.shape[2:])
    counts[inner[2:]] = 1
    y = numpy.empty(x.shape[:2] + tuple(outs))
    for pos in itertools.product(*[range(o) for o in outs]):
        window = tuple(slice(i * s, i * s + k)
                       for i, s, k in zip(pos, stride, ksize))
        total = padded[(slice(None), slice(None)) + window].sum(
            axis=tuple(range(2, 2 + ndim)))
        size = counts[window].sum() if pad_value is None else numpy.prod(
            ksize)
        y[(slice(None), slice(None)) + pos] = total / size
    return y


# x shape, ksize, stride, pad
CASES = [
    ((2, 3, 7), 3, 2, 1),
    ((2, 3, 4, 6), 2, None, 0),
    ((2, 3, 5, 6), 3, 2, 1),
    ((1, 2, 5, 7), (3, 2), (1, 3), (1, 0)),
    ((1, 2, 4, 3, 4), 2, 1, (1, 0, 1)),
    ((1, 2, 3, 4, 2, 3), 2, None, 0),
]


@testing.parameterize(*testing.product({
    'case': CASES,
    'pad_value': [0, None],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAveragePoolingND(testing.FunctionTestCase):

    def setUp(self):
        self.x_shape, self.ksize, self.stride, self.pad = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-3, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-3, 'rtol': 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        return x,

    def forward(self, inputs, device):
        ndim = len(self.x_shape) - 2
        func = {1: F.average_pooling_1d, 3: F.average_pooling_3d}.get(
            ndim, F.average_pooling_nd)
        return func(inputs[0], self.ksize, self.stride, self.pad,
                    self.pad_value),

    def forward_expected(self, inputs):
        y = _reference(inputs[0], self.ksize, self.stride, self.pad,
                       self.pad_value)
        return y.astype(self.dtype),


def test_node_class_and_attributes():
    y = F.average_pooling_nd(
        chainer.Variable(numpy.ones((1, 2, 4, 4), numpy.float32)), 2,
        pad_value=None)
    node = y.creator
    assert type(node) is average_pooling_nd.AveragePoolingND
    assert node.label == 'AveragePoolingND'
    assert node.ksize == (2, 2) and node.pad_value is None


def test_pad_value_must_be_zero_or_none():
    with pytest.raises(ValueError, match='pad_value'):
        F.average_pooling_nd(numpy.ones((1, 1, 4), numpy.float32), 2,
                             pad_value=1)


def test_cover_all_is_not_supported():
    with pytest.raises(ValueError, match='cover_all'):
        average_pooling_nd.AveragePoolingND(1, 2, cover_all=True)


def test_wrong_number_of_spatial_axes():
    with pytest.raises(ValueError, match='should be 3'):
        F.average_pooling_3d(numpy.ones((1, 2, 3, 3), numpy.float32), 2)


@pytest.mark.parametrize('use_kernels', ['never', 'auto'])
@pytest.mark.parametrize('ndim', [1, 2, 3])
def test_gradient_shared_by_two_poolings_matches_finite_differences(
        ndim, use_kernels):
    # Deliberately unlike Chainer 7.8.1 (docs/guides/migration.rst): its
    # backward with pad_value=None divided the incoming gradient in place,
    # so the second of two poolings whose outputs are added (both receive
    # the one gradient array of the sum) divided it a second time.
    rng = numpy.random.RandomState(0)
    x = rng.randn(2, 3, *range(5, 5 + ndim))

    def pool_twice(v):
        y1 = F.average_pooling_nd(v, 3, stride=2, pad=1, pad_value=None)
        y2 = F.average_pooling_nd(v, 3, stride=2, pad=1, pad_value=None)
        return y1 + y2

    with chainer.using_config('use_chainerx_cpp', use_kernels):
        xv = chainer.Variable(x.copy())
        y = pool_twice(xv)
        gy = rng.randn(*y.shape)
        given = gy.copy()
        y.grad = given
        y.backward()
        numerical, = gradient_check.numerical_grad(
            lambda: (pool_twice(x).array,), (x,), (gy,))
    numpy.testing.assert_allclose(xv.grad, numerical, rtol=1e-7,
                                  atol=1e-9)
    # The gradient given on the output is read, not changed.
    numpy.testing.assert_array_equal(given, gy)
