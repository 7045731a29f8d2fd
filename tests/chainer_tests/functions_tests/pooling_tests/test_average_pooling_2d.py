import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.pooling import average_pooling_2d
from chainer import testing
from chainer.utils import type_check


def _reference(x, ksize, stride, pad):
    # Mean of each window, the zero padding included.
    kh, kw = ksize
    sy, sx = stride
    ph, pw = pad
    padded = numpy.pad(x.astype(numpy.float64),
                       ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    out_h = (padded.shape[2] - kh) // sy + 1
    out_w = (padded.shape[3] - kw) // sx + 1
    y = numpy.empty(x.shape[:2] + (out_h, out_w))
    for i in range(out_h):
        for j in range(out_w):
            y[:, :, i, j] = padded[:, :, i * sy:i * sy + kh,
                                   j * sx:j * sx + kw].mean(axis=(2, 3))
    return y


@testing.parameterize(*testing.product({
    'ksize,stride,pad': [((2, 2), (2, 2), (0, 0)), ((3, 3), (2, 2), (1, 1)),
                         ((3, 2), (1, 2), (1, 0))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAveragePooling2D(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-3, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-3, 'rtol': 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (2, 3, 5, 6)).astype(self.dtype)
        return x,

    def forward(self, inputs, device):
        return F.average_pooling_2d(inputs[0], self.ksize, self.stride,
                                    self.pad),

    def forward_expected(self, inputs):
        y = _reference(inputs[0], self.ksize, self.stride, self.pad)
        return y.astype(self.dtype),


def test_node_class_and_attributes():
    y = F.average_pooling_2d(
        chainer.Variable(numpy.ones((1, 2, 4, 4), numpy.float32)), 3, 1, 1)
    node = y.creator
    assert type(node) is average_pooling_2d.AveragePooling2D
    assert node.label == 'AveragePooling2D'
    assert (node.kh, node.kw, node.sy, node.sx, node.ph, node.pw) == (
        3, 3, 1, 1, 1, 1)
    assert node.cover_all is False


def test_stride_defaults_to_ksize():
    y = F.average_pooling_2d(numpy.ones((1, 1, 4, 6), numpy.float32), 2)
    assert y.shape == (1, 1, 2, 3)


def test_not_4d():
    with pytest.raises(type_check.InvalidType):
        F.average_pooling_2d(numpy.ones((1, 2, 4), numpy.float32), 2)
