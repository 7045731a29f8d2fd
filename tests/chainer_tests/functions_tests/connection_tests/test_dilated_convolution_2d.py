import numpy

import chainer
from chainer import functions as F
from chainer.functions.connection import convolution_2d
from chainer import testing


def _reference(x, W, b, stride, pad, dilate):
    # A dilated filter is a plain filter with zeros between the taps.
    out_c, in_c, kh, kw = W.shape
    sparse = numpy.zeros((out_c, in_c, (kh - 1) * dilate + 1,
                          (kw - 1) * dilate + 1))
    sparse[:, :, ::dilate, ::dilate] = W
    x = numpy.pad(x.astype(numpy.float64),
                  ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    kh, kw = sparse.shape[2:]
    out_h = (x.shape[2] - kh) // stride + 1
    out_w = (x.shape[3] - kw) // stride + 1
    y = numpy.empty((len(x), out_c, out_h, out_w))
    for i in range(out_h):
        for j in range(out_w):
            patch = x[:, :, i * stride:i * stride + kh,
                      j * stride:j * stride + kw]
            y[:, :, i, j] = numpy.tensordot(patch, sparse, ((1, 2, 3),) * 2)
    if b is not None:
        y += b[:, None, None]
    return y


@testing.parameterize(*testing.product({
    'stride,pad,dilate': [(1, 0, 2), (2, 2, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDilatedConvolution2D(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (2, 3, 7, 6)).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (2, 3, 3, 2)).astype(self.dtype)
        b = numpy.random.uniform(-1, 1, (2,)).astype(self.dtype)
        return x, W, b

    def forward(self, inputs, device):
        return F.dilated_convolution_2d(*inputs, stride=self.stride,
                                        pad=self.pad, dilate=self.dilate),

    def forward_expected(self, inputs):
        y = _reference(*inputs, self.stride, self.pad, self.dilate)
        return y.astype(self.dtype),


def test_is_a_convolution():
    y = F.dilated_convolution_2d(
        numpy.ones((1, 3, 9, 9), numpy.float32),
        chainer.Variable(numpy.ones((2, 3, 3, 3), numpy.float32)), dilate=2)
    assert type(y.creator) is convolution_2d.Convolution2DFunction
    assert (y.creator.dy, y.creator.dx) == (2, 2)
    assert y.shape == (1, 2, 5, 5)
