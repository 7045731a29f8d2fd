import math

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


def _sample(x, grid):
    # Bilinear sampling with zeros around the image, point by point.
    n, c, h, w = x.shape
    out_h, out_w = grid.shape[2:]
    y = numpy.zeros((n, c, out_h, out_w))
    for b in range(n):
        for i in range(out_h):
            for j in range(out_w):
                u = (grid[b, 0, i, j] + 1) * (w - 1) / 2
                v = (grid[b, 1, i, j] + 1) * (h - 1) / 2
                u0, v0 = math.floor(u), math.floor(v)
                for vv, wv in ((v0, v0 + 1 - v), (v0 + 1, v - v0)):
                    for uu, wu in ((u0, u0 + 1 - u), (u0 + 1, u - u0)):
                        if 0 <= vv < h and 0 <= uu < w:
                            y[b, :, i, j] += wv * wu * x[b, :, vv, uu]
    return y


@testing.parameterize(*testing.product({
    'grid_range': [(-1, 1), (-1.5, 1.5)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(
    None, [{}, {'use_cuda': True}, {'use_cuda': True, 'use_cudnn': 'always'}])
class TestSpatialTransformerSampler(testing.FunctionTestCase):

    skip_double_backward_test = True
    dodge_nondifferentiable = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 1e-1, 'rtol': 1e-1}
        else:
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (2, 3, 4, 5)).astype(self.dtype)
        grid = numpy.random.uniform(
            *self.grid_range, (2, 2, 3, 2)).astype(self.dtype)
        return x, grid

    def forward(self, inputs, device):
        x, grid = inputs
        return F.spatial_transformer_sampler(x, grid),

    def forward_expected(self, inputs):
        x, grid = inputs
        return _sample(x.astype(numpy.float64),
                       grid.astype(numpy.float64)).astype(self.dtype),


def test_label_and_identity_grid():
    x = numpy.random.uniform(-1, 1, (2, 3, 4, 5)).astype(numpy.float32)
    theta = numpy.tile(numpy.array([[1, 0, 0], [0, 1, 0]], numpy.float32),
                       (2, 1, 1))
    grid = F.spatial_transformer_grid(theta, (4, 5))
    y = F.spatial_transformer_sampler(chainer.Variable(x), grid)
    assert y.creator.label == 'SpatialTransformerSampler'
    numpy.testing.assert_allclose(y.array, x, atol=1e-6)


def test_points_far_outside_are_zero():
    x = numpy.ones((1, 1, 2, 2), numpy.float32)
    grid = numpy.array([[[[5., -7.]], [[0., 0.]]]], numpy.float32)
    y = F.spatial_transformer_sampler(x, grid)
    numpy.testing.assert_array_equal(y.array, numpy.zeros((1, 1, 1, 2)))


@pytest.mark.parametrize('x_shape, grid_shape, grid_dtype', [
    ((1, 1, 2, 2), (1, 3, 2, 2), numpy.float32),
    ((2, 1, 2, 2), (1, 2, 2, 2), numpy.float32),
    ((1, 1, 2, 2), (1, 2, 2, 2), numpy.float64),
    ((1, 2, 2), (1, 2, 2, 2), numpy.float32),
], ids=['grid_channels', 'batch', 'dtype', 'ndim'])
def test_invalid(x_shape, grid_shape, grid_dtype):
    x = numpy.zeros(x_shape, numpy.float32)
    grid = numpy.zeros(grid_shape, grid_dtype)
    with pytest.raises(type_check.InvalidType):
        F.spatial_transformer_sampler(x, grid)


def test_use_cudnn_argument():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match='use_cudnn'):
        F.spatial_transformer_sampler(x, x[:, [0, 0]], use_cudnn=True)


def test_grid_of_too_few_dimensions():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.spatial_transformer_sampler(x, numpy.zeros((1,), numpy.float32))
