import numpy

import chainer
from chainer import functions as F
from chainer.functions.connection import convolution_2d
from chainer import testing


def _reference(x, W, b, stride, pad):
    # Channel c of x convolved with W[m, c] gives channel c * c_M + m.
    multiplier, in_c, kh, kw = W.shape
    x = numpy.pad(x.astype(numpy.float64),
                  ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    out_h = (x.shape[2] - kh) // stride + 1
    out_w = (x.shape[3] - kw) // stride + 1
    y = numpy.zeros((len(x), multiplier * in_c, out_h, out_w))
    for m in range(multiplier):
        for c in range(in_c):
            for i in range(out_h):
                for j in range(out_w):
                    patch = x[:, c, i * stride:i * stride + kh,
                              j * stride:j * stride + kw]
                    y[:, c * multiplier + m, i, j] = (
                        patch * W[m, c]).sum((1, 2))
    if b is not None:
        y += b[:, None, None]
    return y


@testing.parameterize(*testing.product({
    'stride,pad': [(1, 0), (2, 1)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'nobias': [False, True],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDepthwiseConvolution2D(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (2, 3, 5, 4)).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (2, 3, 3, 2)).astype(self.dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, (6,)).astype(self.dtype)

    def forward(self, inputs, device):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        return F.depthwise_convolution_2d(x, W, b, self.stride, self.pad),

    def forward_expected(self, inputs):
        b = inputs[2] if len(inputs) == 3 else None
        y = _reference(inputs[0], inputs[1], b, self.stride, self.pad)
        return y.astype(self.dtype),


def test_is_a_grouped_convolution():
    y = F.depthwise_convolution_2d(
        numpy.ones((1, 3, 4, 4), numpy.float32),
        chainer.Variable(numpy.ones((2, 3, 3, 3), numpy.float32)))
    assert type(y.creator) is convolution_2d.Convolution2DFunction
    assert y.creator.groups == 3
    assert y.shape == (1, 6, 2, 2)
