import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.pooling import unpooling_2d
from chainer import testing
from chainer.utils import type_check


def _reference(x, ksize, stride, pad, outsize):
    (kh, kw), (sy, sx), (ph, pw) = ksize, stride, pad
    out_h, out_w = outsize
    n, c, h, w = x.shape
    full = numpy.zeros((n, c, out_h + 2 * ph + sy + kh,
                        out_w + 2 * pw + sx + kw))
    for i in range(h):
        for j in range(w):
            full[:, :, i * sy:i * sy + kh, j * sx:j * sx + kw] += \
                x[:, :, i:i + 1, j:j + 1]
    return full[:, :, ph:ph + out_h, pw:pw + out_w]


@testing.parameterize(*testing.product({
    'ksize,stride,pad,outsize,cover_all': [
        ((2, 2), (2, 2), (0, 0), (6, 8), False),
        ((2, 2), (2, 2), (0, 0), (5, 7), True),
        ((3, 3), (2, 2), (1, 1), (4, 6), True),
        ((3, 2), (1, 2), (1, 0), (3, 8), False),
        ((2, 2), (2, 2), (1, 1), (4, 6), False),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUnpooling2D(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (2, 3, 3, 4)).astype(self.dtype)
        return x,

    def forward(self, inputs, device):
        return F.unpooling_2d(inputs[0], self.ksize, self.stride, self.pad,
                              cover_all=self.cover_all),

    def forward_expected(self, inputs):
        y = _reference(inputs[0], self.ksize, self.stride, self.pad,
                       self.outsize)
        return y.astype(self.dtype),


def test_node_class_and_attributes():
    y = F.unpooling_2d(
        chainer.Variable(numpy.ones((1, 2, 3, 3), numpy.float32)), 2,
        outsize=(6, 6))
    node = y.creator
    assert type(node) is unpooling_2d.Unpooling2D
    assert node.label == 'Unpooling2D'
    assert (node.kh, node.sy, node.outh, node.outw) == (2, 2, 6, 6)
    assert y.shape == (1, 2, 6, 6)


def test_outsize_that_does_not_pool_back():
    with pytest.raises(type_check.InvalidType):
        F.unpooling_2d(numpy.ones((1, 2, 3, 3), numpy.float32), 2,
                       outsize=(9, 6))
