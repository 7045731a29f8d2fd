import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.connection import local_convolution_2d
from chainer import testing
from chainer.utils import type_check


def _reference(x, W, b, stride):
    sy, sx = stride
    out_c, out_h, out_w, in_c, kh, kw = W.shape
    y = numpy.empty((len(x), out_c, out_h, out_w))
    for i in range(out_h):
        for j in range(out_w):
            patch = x[:, :, i * sy:i * sy + kh, j * sx:j * sx + kw]
            y[:, :, i, j] = numpy.tensordot(
                patch.astype(numpy.float64), W[:, i, j], ((1, 2, 3),) * 2)
    if b is not None:
        y += b
    return y


@testing.parameterize(*testing.product({
    'stride,out_size': [((1, 1), (3, 3)), ((2, 1), (2, 3)),
                        ((2, 2), (1, 2))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'nobias': [False, True],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLocalConvolution2D(testing.FunctionTestCase):

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
        W = numpy.random.uniform(
            -1, 1, (2,) + self.out_size + (3, 3, 2)).astype(self.dtype)
        if self.nobias:
            return x, W
        b = numpy.random.uniform(-1, 1, (2,) + self.out_size)
        return x, W, b.astype(self.dtype)

    def forward(self, inputs, device):
        return F.local_convolution_2d(*inputs, stride=self.stride),

    def forward_expected(self, inputs):
        b = inputs[2] if len(inputs) == 3 else None
        y = _reference(inputs[0], inputs[1], b, self.stride)
        return y.astype(self.dtype),


def test_node_class():
    y = F.local_convolution_2d(
        numpy.ones((1, 2, 4, 4), numpy.float32),
        chainer.Variable(numpy.ones((3, 2, 2, 2, 3, 3), numpy.float32)))
    assert type(y.creator) is local_convolution_2d.LocalConvolution2DFunction
    assert y.creator.label == 'LocalConvolution2DFunction'


@pytest.mark.parametrize('x_shape, W_shape, b_shape', [
    ((1, 3, 4, 4), (3, 2, 2, 2, 3, 3), None),
    ((1, 2, 4, 4), (3, 3, 2, 2, 3, 3), None),
    ((1, 2, 4, 4), (3, 2, 2, 2, 3), None),
    ((1, 2, 4, 4), (3, 2, 2, 2, 3, 3), (3, 2)),
], ids=['channels', 'too_many_windows', 'W_ndim', 'b_shape'])
def test_invalid_shapes(x_shape, W_shape, b_shape):
    args = [numpy.ones(x_shape, numpy.float32),
            numpy.ones(W_shape, numpy.float32)]
    if b_shape is not None:
        args.append(numpy.ones(b_shape, numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.local_convolution_2d(*args)
