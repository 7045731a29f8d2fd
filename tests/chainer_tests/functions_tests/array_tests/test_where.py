import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shapes': [
        ((3, 2), (3, 2), (3, 2)), ((3, 2), (2,), (3, 1)),
        ((1, 2), (3, 2), ()), ((), (), ()), ((0, 2), (0, 2), (2,)),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestWhere(testing.FunctionTestCase):

    def setUp(self):
        self.c_shape, self.x_shape, self.y_shape = self.shapes
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        self.condition = numpy.random.uniform(0, 1, self.c_shape) > 0.5
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        y = numpy.random.uniform(-1, 1, self.y_shape).astype(self.dtype)
        return x, y

    def forward(self, inputs, device):
        x, y = inputs
        return F.where(device.send(self.condition), x, y),

    def forward_expected(self, inputs):
        x, y = inputs
        return numpy.where(self.condition, x, y),


def test_class_and_variable_condition():
    condition = chainer.Variable(numpy.array([True, False]))
    x = chainer.Variable(numpy.array([1, 2], numpy.float32))
    y = chainer.Variable(numpy.array([3, 4], numpy.float32))
    z = F.where(condition, x, y)
    assert type(z.creator).__name__ == 'Where'
    numpy.testing.assert_array_equal(z.array, [1, 4])
    z.grad = numpy.array([5, 6], numpy.float32)
    z.backward()
    numpy.testing.assert_array_equal(x.grad, [5, 0])
    numpy.testing.assert_array_equal(y.grad, [0, 6])


def test_scalar_condition():
    x = numpy.array([1, 2], numpy.float32)
    y = numpy.array([3, 4], numpy.float32)
    numpy.testing.assert_array_equal(
        F.where(numpy.bool_(True), x, y).array, x)


@pytest.mark.parametrize('condition, x_dtype, y_dtype, shape', [
    ([True, False], numpy.float32, numpy.float32, (2,)),
    (numpy.array([1, 0]), numpy.float32, numpy.float32, (2,)),
    (numpy.array([True, False]), numpy.float32, numpy.float64, (2,)),
    (numpy.array([True, False]), numpy.float32, numpy.float32, (3,)),
], ids=['list', 'int_condition', 'dtype', 'shape'])
def test_invalid(condition, x_dtype, y_dtype, shape):
    x = numpy.zeros(shape, x_dtype)
    y = numpy.zeros(shape, y_dtype)
    with pytest.raises(type_check.InvalidType):
        F.where(condition, x, y)
