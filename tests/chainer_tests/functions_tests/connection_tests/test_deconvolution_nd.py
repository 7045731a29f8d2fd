import itertools

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.connection import deconvolution_nd
from chainer import testing
from chainer.utils import type_check


def _as_tuple(v, n):
    return tuple(v) if isinstance(v, tuple) else (v,) * n


def _reference(x, W, b, stride, pad, outsize, dilate, groups):
    # Each input element scatters W times its value onto the output.
    x = x.astype(numpy.float64)
    W = W.astype(numpy.float64)
    n, in_c = x.shape[:2]
    out_cg = W.shape[1]
    ksize = W.shape[2:]
    ndim = len(ksize)
    stride, pad, dilate = (_as_tuple(v, ndim) for v in (stride, pad, dilate))
    spans = [(k - 1) * d + 1 for k, d in zip(ksize, dilate)]
    if outsize is None:
        outsize = [s * (size - 1) + span - 2 * p for s, size, span, p
                   in zip(stride, x.shape[2:], spans, pad)]
    full = numpy.zeros((n, out_cg * groups) + tuple(
        max(o + 2 * p, s * (size - 1) + span) for o, p, s, size, span
        in zip(outsize, pad, stride, x.shape[2:], spans)))
    in_cg = in_c // groups
    for pos in itertools.product(*[range(size) for size in x.shape[2:]]):
        window = tuple(slice(i * s, i * s + span, d)
                       for i, s, span, d in zip(pos, stride, spans, dilate))
        for g in range(groups):
            ins = slice(g * in_cg, (g + 1) * in_cg)
            full[(slice(None), slice(g * out_cg, (g + 1) * out_cg))
                 + window] += numpy.tensordot(
                     x[(slice(None), ins) + pos], W[ins], 1)
    y = full[(slice(None), slice(None)) + tuple(
        slice(p, p + o) for p, o in zip(pad, outsize))]
    if b is not None:
        y = y + b.reshape((-1,) + (1,) * ndim)
    return y


# x shape, W shape, stride, pad, outsize, dilate, groups
CASES = [
    ((2, 3, 4), (3, 2, 3), 2, 1, None, 1, 1),
    ((2, 4, 3), (4, 1, 2), 3, 0, (9,), 2, 2),
    ((2, 3, 17), (3, 2, 3), 1, 1, None, 1, 1),
    ((1, 2, 2, 3, 2), (2, 3, 2, 2, 3), 1, 0, None, 1, 1),
    ((1, 2, 3, 2, 2), (2, 2, 3, 2, 2), (2, 1, 2), (1, 0, 1), (6, 3, 3), 1,
     1),
    ((1, 4, 2, 2, 3), (4, 1, 2, 2, 2), 1, 1, None, (1, 2, 1), 2),
]


@testing.parameterize(*testing.product({
    'case': CASES,
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'nobias': [False, True],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDeconvolutionND(testing.FunctionTestCase):

    def setUp(self):
        (self.x_shape, self.W_shape, self.stride, self.pad, self.outsize,
         self.dilate, self.groups) = self.case
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
        b = numpy.random.uniform(
            -1, 1, (self.W_shape[1] * self.groups,)).astype(self.dtype)
        return x, W, b

    def forward(self, inputs, device):
        ndim = len(self.x_shape) - 2
        func = {1: F.deconvolution_1d, 3: F.deconvolution_3d}.get(
            ndim, F.deconvolution_nd)
        return func(*inputs, stride=self.stride, pad=self.pad,
                    outsize=self.outsize, dilate=self.dilate,
                    groups=self.groups),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        y = _reference(x, W, b, self.stride, self.pad, self.outsize,
                       self.dilate, self.groups)
        return y.astype(self.dtype),


def test_node_class_and_attributes():
    W = chainer.Variable(numpy.ones((3, 2, 3), numpy.float32))
    y = F.deconvolution_nd(numpy.ones((1, 3, 4), numpy.float32), W,
                           stride=2, pad=1)
    node = y.creator
    assert type(node) is deconvolution_nd.DeconvolutionND
    assert node.label == 'DeconvolutionND'
    assert node.outs == (7,) and node.cover_all is False
    assert y.shape == (1, 2, 7)


def test_wrong_number_of_spatial_axes():
    with pytest.raises(ValueError, match='should be 3'):
        F.deconvolution_3d(numpy.ones((1, 2, 3, 3), numpy.float32),
                           numpy.ones((2, 1, 2, 2), numpy.float32))


@pytest.mark.parametrize('x_shape, W_shape, outsize', [
    ((1, 3, 4), (2, 2, 3), None),
    ((1, 3, 4), (3, 2, 3), (20,)),
], ids=['channels', 'outsize'])
def test_invalid_shapes(x_shape, W_shape, outsize):
    with pytest.raises(type_check.InvalidType):
        F.deconvolution_nd(numpy.ones(x_shape, numpy.float32),
                           numpy.ones(W_shape, numpy.float32),
                           outsize=outsize)
