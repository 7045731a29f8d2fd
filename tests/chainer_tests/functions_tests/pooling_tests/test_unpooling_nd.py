import itertools

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.pooling import unpooling_nd
from chainer import testing
from chainer.utils import type_check


def _as_tuple(v, n):
    return tuple(v) if isinstance(v, tuple) else (v,) * n


def _reference(x, ksize, stride, pad, outsize, cover_all):
    # Every input element is added to each element of its window.
    ndim = x.ndim - 2
    ksize, pad = _as_tuple(ksize, ndim), _as_tuple(pad, ndim)
    stride = ksize if stride is None else _as_tuple(stride, ndim)
    if outsize is None:
        outsize = [s * (d - 1) + k - 2 * p - (s - 1 if cover_all else 0)
                   for d, k, s, p in zip(x.shape[2:], ksize, stride, pad)]
    full = numpy.zeros(x.shape[:2] + tuple(
        o + 2 * p + s + k for o, p, s, k in zip(outsize, pad, stride, ksize)))
    for pos in itertools.product(*[range(d) for d in x.shape[2:]]):
        window = tuple(slice(i * s, i * s + k)
                       for i, s, k in zip(pos, stride, ksize))
        full[(slice(None), slice(None)) + window] += x[
            (slice(None), slice(None)) + pos].reshape(
                x.shape[:2] + (1,) * ndim)
    return full[(slice(None), slice(None)) + tuple(
        slice(p, p + o) for p, o in zip(pad, outsize))]


# x shape, ksize, stride, pad, outsize, cover_all
CASES = [
    ((2, 3, 4), 2, None, 0, None, False),
    ((2, 3, 4), 3, 2, 1, None, True),
    ((2, 3, 3, 4), 2, None, 0, None, True),
    ((2, 3, 3, 4), 3, 2, 1, (5, 7), True),
    ((1, 2, 3, 2), (2, 3), (1, 2), (0, 1), None, False),
    ((1, 2, 2, 3, 2), 2, 1, (1, 0, 0), None, True),
]


@testing.parameterize(*testing.product({
    'case': CASES,
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUnpoolingND(testing.FunctionTestCase):

    def setUp(self):
        (self.x_shape, self.ksize, self.stride, self.pad, self.outsize,
         self.cover_all) = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        return x,

    def forward(self, inputs, device):
        ndim = len(self.x_shape) - 2
        func = {1: F.unpooling_1d, 3: F.unpooling_3d}.get(
            ndim, F.unpooling_nd)
        return func(inputs[0], self.ksize, self.stride, self.pad,
                    self.outsize, self.cover_all),

    def forward_expected(self, inputs):
        y = _reference(inputs[0], self.ksize, self.stride, self.pad,
                       self.outsize, self.cover_all)
        return y.astype(self.dtype),


def test_node_class_and_outsize():
    y = F.unpooling_nd(
        chainer.Variable(numpy.ones((1, 2, 3, 3), numpy.float32)), 2)
    assert type(y.creator) is unpooling_nd.UnpoolingND
    assert y.creator.outs == (5, 5) and y.shape == (1, 2, 5, 5)


def test_outsize_that_does_not_pool_back():
    with pytest.raises(type_check.InvalidType):
        F.unpooling_nd(numpy.ones((1, 2, 3, 3), numpy.float32), 2,
                       outsize=(9, 9))


def test_wrong_number_of_spatial_axes():
    with pytest.raises(ValueError, match='should be 1'):
        F.unpooling_1d(numpy.ones((1, 2, 3, 3), numpy.float32), 2)
