import itertools

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.connection import convolution_2d
from chainer import testing
from chainer.utils import type_check


def _out_size(size, k, s, p, d, cover_all):
    span = (k - 1) * d + 1
    return (size + 2 * p - span + (s - 1 if cover_all else 0)) // s + 1


def _reference(x, W, b, stride, pad, dilate, groups, cover_all):
    # Direct sum over the output pixels and the groups.
    x = x.astype(numpy.float64)
    W = W.astype(numpy.float64)
    n, c, h, w = x.shape
    out_c, in_cg, kh, kw = W.shape
    (sy, sx), (ph, pw), (dy, dx) = stride, pad, dilate
    out_h = _out_size(h, kh, sy, ph, dy, cover_all)
    out_w = _out_size(w, kw, sx, pw, dx, cover_all)
    padded = numpy.zeros((n, c, h + 2 * ph + sy * 2 + kh * dy,
                          w + 2 * pw + sx * 2 + kw * dx))
    padded[:, :, ph:ph + h, pw:pw + w] = x
    out_cg = out_c // groups
    y = numpy.zeros((n, out_c, out_h, out_w))
    for i, j in itertools.product(range(out_h), range(out_w)):
        patch = padded[:, :, i * sy:i * sy + (kh - 1) * dy + 1:dy,
                       j * sx:j * sx + (kw - 1) * dx + 1:dx]
        for g in range(groups):
            y[:, g * out_cg:(g + 1) * out_cg, i, j] = numpy.tensordot(
                patch[:, g * in_cg:(g + 1) * in_cg],
                W[g * out_cg:(g + 1) * out_cg], ((1, 2, 3), (1, 2, 3)))
    if b is not None:
        y += b[:, None, None]
    return y


# x shape, W shape, stride, pad, dilate, groups, cover_all
CASES = [
    ((2, 3, 5, 4), (2, 3, 3, 2), 1, 0, 1, 1, False),
    ((2, 3, 6, 5), (4, 3, 3, 3), 2, 1, 1, 1, False),
    ((2, 3, 6, 5), (4, 3, 3, 3), 2, 1, 1, 1, True),
    ((1, 2, 7, 6), (3, 2, 2, 3), (3, 2), (2, 0), 1, 1, True),
    ((2, 2, 7, 6), (2, 2, 3, 2), 1, 1, (2, 3), 1, False),
    ((2, 4, 5, 5), (6, 2, 3, 3), 1, 1, 1, 2, False),
    ((1, 6, 6, 5), (3, 2, 2, 2), 2, 0, 2, 3, True),
    ((0, 2, 4, 4), (3, 2, 3, 3), 1, 0, 1, 1, False),
    # Wide outputs take the batch-major layout.
    ((2, 4, 3, 20), (4, 2, 2, 3), (1, 1), (0, 1), 1, 2, True),
]


def _pair(v):
    return v if isinstance(v, tuple) else (v, v)


@testing.parameterize(*testing.product({
    'case': CASES,
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'nobias': [False, True],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestConvolution2D(testing.FunctionTestCase):

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
        return F.convolution_2d(
            *inputs, stride=self.stride, pad=self.pad,
            cover_all=self.cover_all, dilate=self.dilate,
            groups=self.groups),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        y = _reference(x, W, b, _pair(self.stride), _pair(self.pad),
                       _pair(self.dilate), self.groups, self.cover_all)
        return y.astype(self.dtype),


def test_node_class_attributes_and_label():
    x = numpy.ones((1, 4, 5, 5), numpy.float32)
    W = chainer.Variable(numpy.ones((2, 2, 3, 3), numpy.float32))
    y = F.convolution_2d(x, W, stride=(2, 1), pad=1, dilate=2, groups=2)
    node = y.creator
    assert type(node) is convolution_2d.Convolution2DFunction
    assert node.label == 'Convolution2DFunction'
    assert (node.sy, node.sx, node.ph, node.pw) == (2, 1, 1, 1)
    assert (node.dy, node.dx, node.groups, node.cover_all) == (2, 2, 2, False)


def test_mixed_dtypes():
    x = chainer.Variable(numpy.random.uniform(
        -1, 1, (2, 3, 4, 4)).astype(numpy.float16))
    W = chainer.Variable(numpy.random.uniform(
        -1, 1, (2, 3, 3, 3)).astype(numpy.float32))
    y = F.convolution_2d(x, W)
    assert y.dtype == numpy.float16
    expected = _reference(x.array, W.array, None, (1, 1), (0, 0), (1, 1), 1,
                          False)
    testing.assert_allclose(y.array, expected, atol=1e-2, rtol=1e-2)
    F.sum(y).backward()
    assert x.grad.dtype == numpy.float16 and W.grad.dtype == numpy.float32


@pytest.mark.parametrize('x_shape, W_shape, b_shape, groups', [
    ((1, 3, 5, 5), (2, 2, 3, 3), None, 1),
    ((1, 4, 5, 5), (3, 2, 3, 3), None, 2),
    ((1, 3, 5), (2, 3, 3, 3), None, 1),
    ((1, 3, 5, 5), (2, 3, 3), None, 1),
    ((1, 3, 5, 5), (2, 3, 3, 3), (3,), 1),
    ((1, 3, 5, 5), (2, 3, 3, 3), (2, 1), 1),
], ids=['channels', 'out_groups', 'x_ndim', 'W_ndim', 'b_size', 'b_ndim'])
def test_invalid_shapes(x_shape, W_shape, b_shape, groups):
    args = [numpy.ones(x_shape, numpy.float32),
            numpy.ones(W_shape, numpy.float32)]
    if b_shape is not None:
        args.append(numpy.ones(b_shape, numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.convolution_2d(*args, groups=groups)


def test_integer_input():
    with pytest.raises(type_check.InvalidType):
        F.convolution_2d(numpy.ones((1, 3, 5, 5), numpy.int32),
                         numpy.ones((2, 3, 3, 3), numpy.float32))


def test_output_too_small():
    with pytest.raises(AssertionError, match='Height'):
        F.convolution_2d(numpy.ones((1, 3, 2, 5), numpy.float32),
                         numpy.ones((2, 3, 3, 3), numpy.float32))


def test_bad_dilate():
    with pytest.raises(ValueError, match='Dilate should be positive'):
        F.convolution_2d(numpy.ones((1, 3, 5, 5), numpy.float32),
                         numpy.ones((2, 3, 3, 3), numpy.float32), dilate=0)


def test_retired_and_unknown_arguments():
    x = numpy.ones((1, 3, 5, 5), numpy.float32)
    W = numpy.ones((2, 3, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match='deterministic argument'):
        F.convolution_2d(x, W, deterministic=True)
    with pytest.raises(TypeError, match='unexpected keyword'):
        F.convolution_2d(x, W, foo=1)


def test_cudnn_fast_on_cpu():
    with pytest.raises(RuntimeError, match='cudnn_fast'):
        F.convolution_2d(numpy.ones((1, 3, 5, 5), numpy.float32),
                         numpy.ones((2, 3, 3, 3), numpy.float32),
                         cudnn_fast=True)
