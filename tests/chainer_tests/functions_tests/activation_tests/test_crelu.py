import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.activation import crelu
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [{'shape': (5, 4), 'axis': 1},
     {'shape': (5, 4), 'axis': 0},
     {'shape': (5, 4), 'axis': -1},
     {'shape': (5, 4), 'axis': -2},
     {'shape': (2, 3, 4), 'axis': 2},
     {'shape': (3,), 'axis': 0},
     {'shape': (0, 3), 'axis': 1}],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32},
     {'dtype': numpy.float64}],
))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCReLU(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        x[numpy.abs(x) < 0.1] = 0.5
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.crelu(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        y = numpy.concatenate(
            (numpy.maximum(x, 0), numpy.maximum(-x, 0)), axis=self.axis)
        return y.astype(x.dtype),


def test_example_and_class():
    x = numpy.array([[-1., 0.], [2., -3.]], numpy.float32)
    y = F.crelu(chainer.Variable(x))
    assert type(y.creator) is crelu.CReLU
    numpy.testing.assert_array_equal(
        y.array, [[0, 0, 1, 0], [2, 0, 0, 3]])


@pytest.mark.parametrize('axis', [2, -3])
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType):
        F.crelu(numpy.ones((2, 3), numpy.float32), axis=axis)


@pytest.mark.parametrize('axis', [1.0, None, numpy.int64(1)], ids=str)
def test_axis_must_be_int(axis):
    with pytest.raises(TypeError, match='axis must be an integer value'):
        F.crelu(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.crelu(numpy.ones((2, 3), numpy.int32))
