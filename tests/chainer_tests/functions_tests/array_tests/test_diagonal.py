import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape_args': [
        ((3, 3), (0, 0, 1)), ((3, 4), (1, 0, 1)), ((4, 3), (-2, 0, 1)),
        ((2, 3, 4), (0, 2, 0)), ((2, 3, 4), (1, -1, 1)), ((3, 3), (5, 0, 1)),
        ((2, 0, 3), (0, 0, 2)),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDiagonal(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.args = self.shape_args
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.diagonal(x, *self.args),

    def forward_expected(self, inputs):
        x, = inputs
        return x.diagonal(*self.args).copy(),


def test_class_and_gradient():
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    y = F.diagonal(x, 1)
    assert type(y.creator).__name__ == 'Diagonal'
    y.grad = numpy.array([1, 2], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 1, 0], [0, 0, 2]])


@pytest.mark.parametrize('shape, axes', [
    ((2, 3), (0, 2)), ((2, 3), (-3, 0)), ((3,), (0, 1)),
], ids=['axis', 'negative_axis', 'ndim'])
def test_invalid(shape, axes):
    with pytest.raises(type_check.InvalidType):
        F.diagonal(numpy.zeros(shape, numpy.float32), 0, *axes)
