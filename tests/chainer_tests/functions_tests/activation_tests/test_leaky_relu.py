import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.activation import leaky_relu
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'slope': [0.2, 0.0, 1.5, -0.3],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLeakyReLU(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        x[numpy.abs(x) < 0.1] = 0.5
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.leaky_relu(inputs[0], slope=self.slope),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.where(x > 0, x, x * self.dtype(self.slope)).astype(
            x.dtype),


@pytest.mark.parametrize('slope', [0.2, 0.0, 1.0, 1.5, -0.3])
def test_special_values(slope):
    x = numpy.array(
        [numpy.nan, numpy.inf, -numpy.inf, 0., -0., 3., -3.], numpy.float32)
    with numpy.errstate(invalid='ignore'):
        expected = x.copy()
        expected[x <= 0] *= numpy.float32(slope)
        y = F.leaky_relu(x, slope)
    numpy.testing.assert_array_equal(y.array, expected)


def test_node_class():
    y = F.leaky_relu(chainer.Variable(numpy.ones(2, numpy.float32)))
    assert type(y.creator) is leaky_relu.LeakyReLU


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.leaky_relu(numpy.ones((2,), numpy.int32))
