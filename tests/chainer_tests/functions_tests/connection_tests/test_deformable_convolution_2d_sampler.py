import itertools

import numpy
import pytest

from chainer import functions as F
from chainer import testing


def _bilinear(image, y, x):
    # image (n, c, h, w) sampled at real (y, x); zero outside.
    h, w = image.shape[2:]
    y0, x0 = int(numpy.floor(y)), int(numpy.floor(x))
    value = numpy.zeros(image.shape[:2])
    for yi, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
        for xi, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
            if 0 <= yi < h and 0 <= xi < w:
                value = value + wy * wx * image[:, :, yi, xi]
    return value


def _reference(x, offset, W, b, stride, pad):
    x = numpy.pad(x.astype(numpy.float64),
                  ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    out_c, in_c, kh, kw = W.shape
    n, _, out_h, out_w = offset.shape
    y = numpy.zeros((n, out_c, out_h, out_w))
    for i, j in itertools.product(range(out_h), range(out_w)):
        for p, q in itertools.product(range(kh), range(kw)):
            tap = p * kw + q
            for k in range(n):
                dy = offset[k, kh * kw + tap, i, j]
                dx = offset[k, tap, i, j]
                sample = _bilinear(x[k:k + 1], i * stride + p + dy,
                                   j * stride + q + dx)
                y[k, :, i, j] += W[:, :, p, q].dot(sample[0])
    if b is not None:
        y += b[:, None, None]
    return y


@testing.parameterize(*testing.product({
    'stride,pad': [(1, 0), (2, 1)],
    'dtype': [numpy.float32, numpy.float64],
    'nobias': [False, True],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDeformableConvolution2DSampler(testing.FunctionTestCase):

    check_forward_options = {'atol': 1e-4, 'rtol': 1e-4}
    check_backward_options = {'atol': 5e-3, 'rtol': 5e-3}
    check_double_backward_options = {'atol': 5e-3, 'rtol': 5e-3}
    skip_double_backward_test = True

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (2, 3, 5, 4)).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (2, 3, 3, 2)).astype(self.dtype)
        out_h = (5 + 2 * self.pad - 3) // self.stride + 1
        out_w = (4 + 2 * self.pad - 2) // self.stride + 1
        # Fractional parts away from the kinks of the interpolation.
        offset = (numpy.random.randint(-1, 2, (2, 12, out_h, out_w))
                  + numpy.random.uniform(0.2, 0.8, (2, 12, out_h, out_w)))
        offset = offset.astype(self.dtype)
        if self.nobias:
            return x, offset, W
        return x, offset, W, numpy.random.uniform(
            -1, 1, (2,)).astype(self.dtype)

    def forward(self, inputs, device):
        return F.deformable_convolution_2d_sampler(
            *inputs, stride=self.stride, pad=self.pad),

    def forward_expected(self, inputs):
        b = inputs[3] if len(inputs) == 4 else None
        y = _reference(inputs[0], inputs[1], inputs[2], b, self.stride,
                       self.pad)
        return y.astype(self.dtype),


def test_zero_offset_is_a_convolution():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, 3, 6, 5)).astype(numpy.float32)
    W = rng.uniform(-1, 1, (4, 3, 3, 3)).astype(numpy.float32)
    b = rng.uniform(-1, 1, (4,)).astype(numpy.float32)
    offset = numpy.zeros((2, 18, 3, 3), numpy.float32)
    y = F.deformable_convolution_2d_sampler(x, offset, W, b, stride=2, pad=1)
    expected = F.convolution_2d(x, W, b, stride=2, pad=1)
    testing.assert_allclose(y.array, expected.array, atol=1e-5, rtol=1e-5)


def test_offset_channels_must_match_the_kernel():
    with pytest.raises(ValueError, match='offset'):
        F.deformable_convolution_2d_sampler(
            numpy.ones((1, 2, 4, 4), numpy.float32),
            numpy.ones((1, 8, 2, 2), numpy.float32),
            numpy.ones((2, 2, 3, 3), numpy.float32))
