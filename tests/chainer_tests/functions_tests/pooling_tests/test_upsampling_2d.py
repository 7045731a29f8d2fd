import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.pooling import upsampling_2d
from chainer import testing
from chainer.utils import type_check


def _reference(x, indexes, ksize, stride, pad, outsize):
    # Each value goes to the window element its index points to.
    (kh, kw), (sy, sx), (ph, pw) = ksize, stride, pad
    out_h, out_w = outsize
    n, c, h, w = x.shape
    full = numpy.zeros((n, c, out_h + 2 * ph + sy + kh,
                        out_w + 2 * pw + sx + kw))
    for a in range(n):
        for b in range(c):
            for i in range(h):
                for j in range(w):
                    dy, dx = divmod(int(indexes[a, b, i, j]), kw)
                    full[a, b, i * sy + dy, j * sx + dx] += x[a, b, i, j]
    return full[:, :, ph:ph + out_h, pw:pw + out_w]


@testing.parameterize(*testing.product({
    'ksize,stride,pad,in_size,cover_all': [
        ((2, 2), (2, 2), (0, 0), (6, 8), True),
        ((2, 2), (2, 2), (0, 0), (5, 7), True),
        ((3, 3), (2, 2), (1, 1), (6, 7), False),
        ((3, 2), (1, 2), (1, 0), (4, 8), True),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUpsampling2D(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        pooled = numpy.random.permutation(
            2 * 3 * self.in_size[0] * self.in_size[1]).astype(numpy.float32)
        _, self.indexes = F.max_pooling_2d(
            pooled.reshape((2, 3) + self.in_size), self.ksize, self.stride,
            self.pad, self.cover_all, return_indices=True)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.indexes.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        indexes = device.send(self.indexes)
        return F.upsampling_2d(inputs[0], indexes, self.ksize, self.stride,
                               self.pad, self.in_size, self.cover_all),

    def forward_expected(self, inputs):
        y = _reference(inputs[0], self.indexes, self.ksize, self.stride,
                       self.pad, self.in_size)
        return y.astype(self.dtype),


def test_inverts_max_pooling_on_the_maxima():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    up = F.upsampling_2d(chainer.Variable(y.array), indexes, 2,
                         outsize=(4, 4))
    assert type(up.creator) is upsampling_2d.Upsampling2D
    numpy.testing.assert_array_equal(
        up.array, numpy.where(x % 2 * (x // 4 % 2) == 1, x, 0))


def test_indexes_shape_must_match():
    _, indexes = F.max_pooling_2d(numpy.ones((1, 1, 4, 4), numpy.float32), 2,
                                  return_indices=True)
    with pytest.raises(type_check.InvalidType):
        F.upsampling_2d(numpy.ones((1, 1, 3, 2), numpy.float32), indexes, 2)
