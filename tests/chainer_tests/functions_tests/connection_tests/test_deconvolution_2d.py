import itertools

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.connection import deconvolution_2d
from chainer import testing
from chainer.utils import type_check


def _pair(v):
    return v if isinstance(v, tuple) else (v, v)


def _reference(x, W, b, stride, pad, outsize, dilate, groups):
    # Each input pixel scatters W times its value onto the output.
    x = x.astype(numpy.float64)
    W = W.astype(numpy.float64)
    n, in_c, h, w = x.shape
    _, out_cg, kh, kw = W.shape
    (sy, sx), (ph, pw), (dy, dx) = stride, pad, dilate
    if outsize is None:
        outsize = (sy * (h - 1) + (kh - 1) * dy + 1 - 2 * ph,
                   sx * (w - 1) + (kw - 1) * dx + 1 - 2 * pw)
    out_h, out_w = outsize
    full = numpy.zeros((n, out_cg * groups,
                        max(out_h + 2 * ph, sy * (h - 1) + (kh - 1) * dy + 1),
                        max(out_w + 2 * pw, sx * (w - 1) + (kw - 1) * dx + 1)))
    in_cg = in_c // groups
    for i, j in itertools.product(range(h), range(w)):
        window = (slice(i * sy, i * sy + (kh - 1) * dy + 1, dy),
                  slice(j * sx, j * sx + (kw - 1) * dx + 1, dx))
        for g in range(groups):
            ins = slice(g * in_cg, (g + 1) * in_cg)
            full[(slice(None), slice(g * out_cg, (g + 1) * out_cg))
                 + window] += numpy.tensordot(x[:, ins, i, j], W[ins], 1)
    y = full[:, :, ph:ph + out_h, pw:pw + out_w]
    if b is not None:
        y = y + b[:, None, None]
    return y


# x shape, W shape, stride, pad, outsize, dilate, groups
CASES = [
    ((2, 3, 3, 4), (3, 2, 3, 2), 1, 0, None, 1, 1),
    ((2, 3, 3, 4), (3, 2, 3, 3), 2, 1, None, 1, 1),
    ((2, 3, 3, 4), (3, 2, 3, 3), 2, 1, (6, 8), 1, 1),
    ((1, 2, 3, 3), (2, 3, 2, 3), (3, 2), (1, 0), None, (2, 1), 1),
    ((2, 4, 3, 3), (4, 1, 3, 2), 2, 0, (8, 7), 1, 2),
    ((1, 6, 2, 3), (6, 2, 2, 2), 1, 1, None, 2, 3),
    ((0, 2, 3, 3), (2, 2, 2, 2), 1, 0, None, 1, 1),
    # Wide inputs take the batch-major layout.
    ((2, 4, 2, 17), (4, 1, 2, 3), (1, 2), (0, 1), None, 1, 2),
]


@testing.parameterize(*testing.product({
    'case': CASES,
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'nobias': [False, True],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDeconvolution2D(testing.FunctionTestCase):

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
        return F.deconvolution_2d(
            *inputs, stride=self.stride, pad=self.pad, outsize=self.outsize,
            dilate=self.dilate, groups=self.groups),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        y = _reference(x, W, b, _pair(self.stride), _pair(self.pad),
                       self.outsize, _pair(self.dilate), self.groups)
        return y.astype(self.dtype),


def test_node_class_and_attributes():
    W = chainer.Variable(numpy.ones((3, 2, 3, 3), numpy.float32))
    y = F.deconvolution_2d(numpy.ones((1, 3, 4, 4), numpy.float32), W,
                           stride=2, pad=1)
    node = y.creator
    assert type(node) is deconvolution_2d.Deconvolution2DFunction
    assert node.label == 'Deconvolution2DFunction'
    assert (node.sy, node.sx, node.ph, node.pw) == (2, 2, 1, 1)
    assert (node.outh, node.outw, node.cover_all) == (7, 7, False)
    # Only a convolution with cover_all maps 10 back to 4.
    y = F.deconvolution_2d(numpy.ones((1, 3, 4, 4), numpy.float32), W,
                           stride=3, outsize=(10, 10))
    assert y.shape == (1, 2, 10, 10) and y.creator.cover_all


def test_is_the_gradient_of_convolution():
    rng = numpy.random.RandomState(0)
    x = chainer.Variable(rng.uniform(-1, 1, (2, 3, 7, 6)))
    W = rng.uniform(-1, 1, (4, 3, 3, 2))
    y = F.convolution_2d(x, W, stride=2, pad=1, cover_all=True)
    gy = rng.uniform(-1, 1, y.shape)
    y.grad = gy
    y.backward()
    gx = F.deconvolution_2d(gy, W, stride=2, pad=1, outsize=(7, 6))
    testing.assert_allclose(gx.array, x.grad)


@pytest.mark.parametrize('x_shape, W_shape, b_shape, outsize', [
    ((1, 3, 4, 4), (2, 2, 3, 3), None, None),
    ((1, 3, 4), (3, 2, 3, 3), None, None),
    ((1, 3, 4, 4), (3, 2, 3, 3), (3,), None),
    ((1, 3, 4, 4), (3, 2, 3, 3), None, (20, 6)),
], ids=['channels', 'x_ndim', 'b_size', 'outsize'])
def test_invalid_shapes(x_shape, W_shape, b_shape, outsize):
    args = [numpy.ones(x_shape, numpy.float32),
            numpy.ones(W_shape, numpy.float32)]
    if b_shape is not None:
        args.append(numpy.ones(b_shape, numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.deconvolution_2d(*args, outsize=outsize)


def test_bad_dilate():
    with pytest.raises(ValueError, match='Dilate should be positive'):
        F.deconvolution_2d(numpy.ones((1, 3, 5, 5), numpy.float32),
                           numpy.ones((3, 2, 3, 3), numpy.float32), dilate=0)
