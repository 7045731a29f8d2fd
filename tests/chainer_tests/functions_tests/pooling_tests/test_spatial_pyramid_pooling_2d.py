import numpy
import pytest

from chainer import functions as F
from chainer import testing


def _reference(x, pyramid_height):
    # Level l: max over each of the 2^l x 2^l near-equal parts of the image
    # padded (half on each side) to a multiple of the window.
    n, c, h, w = x.shape
    levels = []
    for level in range(pyramid_height):
        bins = 2 ** level
        kh, kw = -(-h // bins), -(-w // bins)
        ph, pw = (kh * bins - h) // 2, (kw * bins - w) // 2
        padded = numpy.full((n, c, kh * bins + kh, kw * bins + kw),
                            -numpy.inf)
        padded[:, :, ph:ph + h, pw:pw + w] = x
        out_h = (h + 2 * ph - kh + kh - 1) // kh + 1
        out_w = (w + 2 * pw - kw + kw - 1) // kw + 1
        pooled = numpy.empty((n, c, out_h, out_w))
        for i in range(out_h):
            for j in range(out_w):
                pooled[:, :, i, j] = padded[:, :, i * kh:(i + 1) * kh,
                                            j * kw:(j + 1) * kw].max((2, 3))
        levels.append(pooled.reshape(n, -1))
    return numpy.concatenate(levels, axis=1)[:, :, None, None]


@testing.parameterize(*testing.product({
    'shape,pyramid_height': [((2, 3, 8, 8), 3), ((2, 3, 12, 10), 2),
                             ((1, 2, 6, 9), 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSpatialPyramidPooling2D(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        x = numpy.random.permutation(int(numpy.prod(self.shape)))
        return (x.reshape(self.shape) / 64.).astype(self.dtype),

    def forward(self, inputs, device):
        return F.spatial_pyramid_pooling_2d(inputs[0], self.pyramid_height,
                                            'max'),

    def forward_expected(self, inputs):
        y = _reference(inputs[0], self.pyramid_height)
        return y.astype(self.dtype),


@pytest.mark.parametrize('shape, pyramid_height', [
    ((2, 3, 7, 5), 3), ((1, 2, 9, 13), 4)])
def test_windows_in_the_padding_give_minus_infinity(shape, pyramid_height):
    # As in the original: a bin that covers padding only is -inf.
    x = numpy.random.RandomState(0).uniform(-1, 1, shape).astype('f')
    y = F.spatial_pyramid_pooling_2d(x, pyramid_height, 'max')
    expected = _reference(x, pyramid_height)
    assert numpy.isneginf(expected).any()
    numpy.testing.assert_array_equal(y.array, expected.astype('f'))


def test_only_max_pooling():
    with pytest.raises(ValueError, match='Unsupported pooling'):
        F.spatial_pyramid_pooling_2d(numpy.ones((1, 2, 4, 4), numpy.float32),
                                     2)
