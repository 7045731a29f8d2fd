import itertools

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.connection import convolution_nd
from chainer import testing
from chainer.utils import type_check


def _as_tuple(v, n):
    return tuple(v) if isinstance(v, tuple) else (v,) * n


def _reference(x, W, b, stride, pad, dilate, groups, cover_all):
    # Direct sum over the output positions and the groups.
    x = x.astype(numpy.float64)
    W = W.astype(numpy.float64)
    n, c = x.shape[:2]
    out_c, in_cg = W.shape[:2]
    ksize = W.shape[2:]
    ndim = len(ksize)
    stride, pad, dilate = (_as_tuple(v, ndim) for v in (stride, pad, dilate))
    spans = [(k - 1) * d + 1 for k, d in zip(ksize, dilate)]
    outs = [(size + 2 * p - span + (s - 1 if cover_all else 0)) // s + 1
            for size, p, span, s in zip(x.shape[2:], pad, spans, stride)]
    padded = numpy.zeros((n, c) + tuple(
        size + 2 * p + 2 * s + span
        for size, p, s, span in zip(x.shape[2:], pad, stride, spans)))
    padded[(slice(None), slice(None)) + tuple(
        slice(p, p + size) for p, size in zip(pad, x.shape[2:]))] = x
    out_cg = out_c // groups
    y = numpy.zeros((n, out_c) + tuple(outs))
    axes = tuple(range(1, ndim + 2))
    for pos in itertools.product(*[range(o) for o in outs]):
        patch = padded[(slice(None), slice(None)) + tuple(
            slice(i * s, i * s + span, d)
            for i, s, span, d in zip(pos, stride, spans, dilate))]
        for g in range(groups):
            out = slice(g * out_cg, (g + 1) * out_cg)
            y[(slice(None), out) + pos] = numpy.tensordot(
                patch[:, g * in_cg:(g + 1) * in_cg], W[out], (axes, axes))
    if b is not None:
        y += b.reshape((-1,) + (1,) * ndim)
    return y


# x shape, W shape, stride, pad, dilate, groups, cover_all
CASES = [
    ((2, 3, 7), (2, 3, 3), 2, 1, 1, 1, False),
    ((2, 4, 7), (4, 2, 2), 3, 0, 2, 2, True),
    ((2, 3, 20), (2, 3, 3), 1, 1, 1, 1, False),
    ((1, 2, 4, 3, 4), (3, 2, 2, 2, 3), 1, 0, 1, 1, False),
    ((2, 2, 5, 4, 3), (2, 2, 3, 2, 2), (2, 1, 2), (1, 0, 1), 1, 1, True),
    ((1, 4, 4, 5, 3), (2, 2, 2, 2, 2), 1, 1, (1, 2, 1), 2, False),
    ((1, 2, 3, 3, 3, 3), (2, 2, 2, 2, 2, 2), 1, 0, 1, 1, False),
]


@testing.parameterize(*testing.product({
    'case': CASES,
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'nobias': [False, True],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestConvolutionND(testing.FunctionTestCase):

    def setUp(self):
        (self.x_shape, self.W_shape, self.stride, self.pad, self.dilate,
         self.groups, self.cover_all) = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, self.W_shape).astype(self.dtype)
        if self.nobias:
            return x, W
        b = numpy.random.uniform(-1, 1, self.W_shape[:1]).astype(self.dtype)
        return x, W, b

    def forward(self, inputs, device):
        ndim = len(self.x_shape) - 2
        func = {1: F.convolution_1d, 3: F.convolution_3d}.get(
            ndim, F.convolution_nd)
        return func(*inputs, stride=self.stride, pad=self.pad,
                    cover_all=self.cover_all, dilate=self.dilate,
                    groups=self.groups),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        y = _reference(x, W, b, self.stride, self.pad, self.dilate,
                       self.groups, self.cover_all)
        return y.astype(self.dtype),


def test_node_class_and_attributes():
    W = chainer.Variable(numpy.ones((2, 3, 2, 2, 2), numpy.float32))
    y = F.convolution_nd(numpy.ones((1, 3, 4, 4, 4), numpy.float32), W,
                         stride=(1, 2, 1), pad=1)
    node = y.creator
    assert type(node) is convolution_nd.ConvolutionND
    assert node.label == 'ConvolutionND'
    assert node.stride == (1, 2, 1) and node.pad == (1, 1, 1)
    assert node.dilate == (1, 1, 1) and node.ndim == 3


def test_bias_of_another_float_dtype():
    x = chainer.Variable(numpy.ones((1, 2, 4), numpy.float32))
    b = chainer.Variable(numpy.ones((3,), numpy.float64))
    y = F.convolution_nd(x, numpy.ones((3, 2, 2), numpy.float32), b)
    assert y.dtype == numpy.float32
    testing.assert_allclose(y.array, numpy.full((1, 3, 3), 5.))
    F.sum(y).backward()
    assert b.grad.dtype == numpy.float64
    testing.assert_allclose(b.grad, [3., 3., 3.])


@pytest.mark.parametrize('func, shape', [
    (F.convolution_1d, (1, 2, 3, 3)),
    (F.convolution_3d, (1, 2, 3, 3)),
])
def test_wrong_number_of_spatial_axes(func, shape):
    with pytest.raises(ValueError, match='should be'):
        func(numpy.ones(shape, numpy.float32),
             numpy.ones((1, 2, 2, 2), numpy.float32))


@pytest.mark.parametrize('x_shape, W_shape, groups', [
    ((1, 3, 5), (2, 2, 3), 1),
    ((1, 4, 5), (3, 2, 3), 2),
    ((1, 3, 5, 5), (2, 3, 3), 1),
], ids=['channels', 'out_groups', 'W_ndim'])
def test_invalid_shapes(x_shape, W_shape, groups):
    with pytest.raises(type_check.InvalidType):
        F.convolution_nd(numpy.ones(x_shape, numpy.float32),
                         numpy.ones(W_shape, numpy.float32), groups=groups)


def test_output_too_small():
    with pytest.raises(AssertionError, match='positive'):
        F.convolution_nd(numpy.ones((1, 2, 2), numpy.float32),
                         numpy.ones((1, 2, 3), numpy.float32))
