import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape_axis': [((3, 2, 4), None), ((3, 2, 4), 0), ((3, 2, 4), 1),
                   ((3, 2, 4), -1), ((5,), 0), ((), None), ((0, 3), 0),
                   ((0, 3), None)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCumsum(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.cumsum(x, axis=self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.cumsum(x, axis=self.axis).astype(self.dtype),


def test_gradient_is_reverse_cumsum():
    x = chainer.Variable(numpy.zeros(4, numpy.float32))
    y = F.cumsum(x)
    y.grad = numpy.array([1., 2., 3., 4.], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [10., 9., 7., 4.])


def test_class():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    assert type(F.cumsum(x).creator).__name__ == 'Cumsum'


@pytest.mark.parametrize('axis', [2, -3], ids=str)
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType):
        F.cumsum(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_zero_dimensional_with_axis():
    with pytest.raises(type_check.InvalidType):
        F.cumsum(numpy.ones((), numpy.float32), axis=0)


@pytest.mark.parametrize('axis', [(1,), 1.0, numpy.int64(1)],
                         ids=['tuple', 'float', 'numpy_int'])
def test_axis_type(axis):
    with pytest.raises(TypeError, match='axis must be int or None'):
        F.cumsum(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_integer_input():
    with pytest.raises(type_check.InvalidType):
        F.cumsum(numpy.ones((2, 3), numpy.int32))
