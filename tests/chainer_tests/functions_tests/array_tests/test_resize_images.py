import math

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


def _neighbours(i, n_in, n_out, mode, align_corners):
    # Input positions around output position ``i`` and their weights.
    if mode == 'nearest':
        return [(min(int(math.floor(i * n_in / n_out)), n_in - 1), 1.0)]
    if align_corners:
        pos = i * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    else:
        pos = max((i + 0.5) * n_in / n_out - 0.5, 0.0)
    lo = int(math.floor(pos))
    w = pos - lo
    return [(lo, 1 - w), (min(lo + 1, n_in - 1), w)]


def _resize(x, out_h, out_w, mode, align_corners):
    n, c, h, w = x.shape
    y = numpy.zeros((n, c, out_h, out_w))
    for i in range(out_h):
        for j in range(out_w):
            for v, wv in _neighbours(i, h, out_h, mode, align_corners):
                for u, wu in _neighbours(j, w, out_w, mode, align_corners):
                    y[:, :, i, j] += wv * wu * x[:, :, v, u]
    return y.astype(x.dtype)


@testing.parameterize(*testing.product({
    'in_out': [((4, 5), (7, 9)), ((6, 5), (3, 2)), ((4, 5), (4, 5)),
               ((1, 3), (2, 1)), ((3, 4), (5, 3))],
    'mode_align': [('bilinear', True), ('bilinear', False),
                   ('nearest', True)],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestResizeImages(testing.FunctionTestCase):

    def setUp(self):
        (self.in_shape, self.out_shape) = self.in_out
        self.mode, self.align_corners = self.mode_align
        self.check_forward_options = {'atol': 1e-6, 'rtol': 1e-5}
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
        self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        shape = (2, 3) + self.in_shape
        return numpy.random.uniform(-1, 1, shape).astype(numpy.float32),

    def forward(self, inputs, device):
        x, = inputs
        return F.resize_images(x, self.out_shape, mode=self.mode,
                               align_corners=self.align_corners),

    def forward_expected(self, inputs):
        x, = inputs
        return _resize(x, *self.out_shape, self.mode, self.align_corners),


def test_class_and_defaults():
    x = chainer.Variable(numpy.arange(4, dtype=numpy.float32).reshape(
        1, 1, 2, 2))
    y = F.resize_images(x, (3, 3))
    assert type(y.creator).__name__ == 'ResizeImages'
    numpy.testing.assert_allclose(
        y.array[0, 0], [[0, .5, 1], [1, 1.5, 2], [2, 2.5, 3]])


def test_gradient_of_nearest_downsampling():
    x = chainer.Variable(numpy.zeros((1, 1, 1, 4), numpy.float32))
    y = F.resize_images(x, (1, 2), mode='nearest')
    y.grad = numpy.array([[[[1, 2]]]], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[[[1, 0, 2, 0]]]])


@pytest.mark.parametrize('shape, dtype', [
    ((1, 2, 3), numpy.float32), ((1, 1, 2, 3), numpy.float64),
], ids=['ndim', 'dtype'])
def test_invalid(shape, dtype):
    with pytest.raises(type_check.InvalidType):
        F.resize_images(numpy.zeros(shape, dtype), (3, 3))


def test_unknown_mode():
    with pytest.raises(AssertionError):
        F.resize_images(numpy.zeros((1, 1, 2, 2), numpy.float32), (3, 3),
                        mode='bicubic')


def test_empty_output():
    x = chainer.Variable(numpy.ones((2, 3, 4, 5), numpy.float32))
    y = F.resize_images(x, (0, 3))
    assert y.shape == (2, 3, 0, 3)
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros_like(x.array))


@pytest.mark.parametrize('mode', ['bilinear', 'nearest'])
@pytest.mark.parametrize('align_corners', [True, False])
def test_interpolation_helpers_match_resize_images(mode, align_corners):
    from chainer.functions.array import resize_images as module
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, 3, 4, 5)).astype(numpy.float32)
    gy = rng.uniform(-1, 1, (2, 3, 7, 3)).astype(numpy.float32)
    v, u, vw, uw = module.compute_indices_and_weights(
        (7, 3), (4, 5), mode, align_corners, numpy)
    assert v.dtype == numpy.float64 and v.shape == (7,) and u.shape == (3,)
    v, u, vw, uw = numpy.broadcast_arrays(
        v.astype(numpy.intp)[:, None], u.astype(numpy.intp)[None, :],
        vw.astype(x.dtype)[:, None], uw.astype(x.dtype)[None, :])
    y = module.interpolate_bilinear_cpu(x, v, u, vw, uw)
    expected = F.resize_images(
        x, (7, 3), mode=mode, align_corners=align_corners).array
    numpy.testing.assert_allclose(y, expected, rtol=1e-6, atol=1e-6)
    gx = module.interpolate_grad_bilinear_cpu(gy, v, u, vw, uw, 4, 5)
    expected_gx = module.ResizeImagesGrad(
        x.shape, (7, 3), mode, align_corners).apply((gy,))[0].array
    numpy.testing.assert_allclose(gx, expected_gx, rtol=1e-5, atol=1e-6)
