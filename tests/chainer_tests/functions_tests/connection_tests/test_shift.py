import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.connection import shift
from chainer import testing
from chainer.utils import type_check


def _reference(x, kh, kw, dy, dx):
    # Channel group g (centre and last swapped) moved by its window offset.
    n, c, h, w = x.shape
    n_groups = kh * kw
    size = c // n_groups
    y = numpy.zeros_like(x)
    for ch in range(c):
        g = min(ch // size, n_groups - 1)
        if g == (n_groups - 1) // 2:
            g = n_groups - 1
        elif g == n_groups - 1:
            g = (n_groups - 1) // 2
        oy = (g // kw - kh // 2) * dy
        ox = (g % kw - kw // 2) * dx
        for i in range(h):
            for j in range(w):
                if 0 <= i - oy < h and 0 <= j - ox < w:
                    y[:, ch, i, j] = x[:, ch, i - oy, j - ox]
    return y


@testing.parameterize(*testing.product({
    'c,ksize,dilate': [(9, 3, 1), (11, 3, 2), (16, (3, 5), (1, -2)),
                       (3, 1, 1), (27, 5, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestShift(testing.FunctionTestCase):

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (2, self.c, 5, 4))
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.shift(inputs[0], ksize=self.ksize, dilate=self.dilate),

    def forward_expected(self, inputs):
        kh, kw = self.ksize if isinstance(self.ksize, tuple) else (
            self.ksize,) * 2
        dy, dx = self.dilate if isinstance(self.dilate, tuple) else (
            self.dilate,) * 2
        return _reference(inputs[0], kh, kw, dy, dx),


def test_node_class():
    y = F.shift(chainer.Variable(numpy.ones((1, 9, 3, 3), numpy.float32)))
    assert type(y.creator) is shift.Shift
    assert (y.creator.kh, y.creator.kw, y.creator.dy) == (3, 3, 1)


def test_even_window():
    with pytest.raises(ValueError, match='must be odd'):
        F.shift(numpy.ones((1, 9, 3, 3), numpy.float32), ksize=(3, 2))


def test_too_few_channels():
    with pytest.raises(type_check.InvalidType):
        F.shift(numpy.ones((1, 8, 3, 3), numpy.float32))
