import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'output_shape': [(5, 6), (1, 3), (2, 1)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(
    None, [{}, {'use_cuda': True}, {'use_cuda': True, 'use_cudnn': 'always'}])
class TestSpatialTransformerGrid(testing.FunctionTestCase):

    skip_double_backward_test = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3, 2, 3)).astype(self.dtype),

    def forward(self, inputs, device):
        theta, = inputs
        return F.spatial_transformer_grid(theta, self.output_shape),

    def forward_expected(self, inputs):
        theta, = inputs
        h, w = self.output_shape
        ys = numpy.linspace(-1, 1, h)
        xs = numpy.linspace(-1, 1, w)
        grid = numpy.empty((len(theta), 2, h, w))
        for i in range(h):
            for j in range(w):
                point = numpy.array([xs[j], ys[i], 1])
                grid[:, :, i, j] = theta.astype(numpy.float64).dot(point)
        return grid.astype(self.dtype),


def test_label():
    theta = chainer.Variable(numpy.zeros((1, 2, 3), numpy.float32))
    y = F.spatial_transformer_grid(theta, (2, 2))
    assert y.creator.label == 'SpatialTransformerGrid'


@pytest.mark.parametrize('shape, dtype', [
    ((1, 2, 2), numpy.float32), ((1, 3, 3), numpy.float32),
    ((2, 3), numpy.float32), ((1, 2, 3), numpy.int32),
], ids=['columns', 'rows', 'ndim', 'dtype'])
def test_invalid(shape, dtype):
    with pytest.raises(type_check.InvalidType):
        F.spatial_transformer_grid(numpy.zeros(shape, dtype), (2, 2))


def test_use_cudnn_argument():
    with pytest.raises(ValueError, match='use_cudnn'):
        F.spatial_transformer_grid(
            numpy.zeros((1, 2, 3), numpy.float32), (2, 2), use_cudnn=True)


def test_unknown_argument():
    with pytest.raises(TypeError):
        F.spatial_transformer_grid(
            numpy.zeros((1, 2, 3), numpy.float32), (2, 2), foo=1)
