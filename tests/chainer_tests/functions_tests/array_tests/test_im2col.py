import numpy
import pytest

from chainer import functions as F
from chainer import testing
from chainer.utils import conv
from chainer.utils import type_check


def _im2col(x, kh, kw, sy, sx, ph, pw, cover_all, dy, dx):
    n, c, h, w = x.shape
    out_h = conv.get_conv_outsize(h, kh, sy, ph, cover_all, dy)
    out_w = conv.get_conv_outsize(w, kw, sx, pw, cover_all, dx)
    y = numpy.zeros((n, c, kh, kw, out_h, out_w), x.dtype)
    for i in range(kh):
        for j in range(kw):
            for oy in range(out_h):
                for ox in range(out_w):
                    iy = oy * sy - ph + i * dy
                    ix = ox * sx - pw + j * dx
                    if 0 <= iy < h and 0 <= ix < w:
                        y[:, :, i, j, oy, ox] = x[:, :, iy, ix]
    return y.reshape(n, c * kh * kw, out_h, out_w)


@testing.parameterize(*testing.product({
    'params': [
        ((3, 3), (1, 1), (1, 1), False, (1, 1)),
        ((2, 3), (2, 1), (0, 1), False, (1, 1)),
        ((2, 2), (3, 2), (1, 0), True, (1, 1)),
        ((2, 2), (1, 1), (1, 1), False, (2, 1)),
        (2, 2, 0, False, 1),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestIm2Col(testing.FunctionTestCase):

    def setUp(self):
        self.ksize, self.stride, self.pad, self.cover_all, self.dilate = (
            self.params)
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 2e-2, 'rtol': 2e-2}
            self.check_double_backward_options = {'atol': 2e-2, 'rtol': 2e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 2, 5, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.im2col(x, self.ksize, self.stride, self.pad,
                        self.cover_all, self.dilate),

    def forward_expected(self, inputs):
        x, = inputs

        def pair(v):
            return v if isinstance(v, tuple) else (v, v)
        (kh, kw), (sy, sx), (ph, pw), (dy, dx) = (
            pair(self.ksize), pair(self.stride), pair(self.pad),
            pair(self.dilate))
        return _im2col(x, kh, kw, sy, sx, ph, pw, self.cover_all, dy, dx),


def test_class_and_defaults():
    x = numpy.arange(32, dtype=numpy.float32).reshape(1, 2, 4, 4)
    y = F.im2col(x, 3)
    assert y.shape == (1, 18, 2, 2)
    numpy.testing.assert_array_equal(
        y.array, _im2col(x, 3, 3, 1, 1, 0, 0, False, 1, 1))


@pytest.mark.parametrize('shape, dtype', [
    ((2, 3, 4), numpy.float32), ((1, 2, 3, 4), numpy.int32),
], ids=['ndim', 'dtype'])
def test_invalid(shape, dtype):
    with pytest.raises(type_check.InvalidType):
        F.im2col(numpy.zeros(shape, dtype), 2)
