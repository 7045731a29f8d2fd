import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.activation import softplus
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'beta': [1.0, 2.5, 0.5],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSoftplus(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.softplus(inputs[0], beta=self.beta),

    def forward_expected(self, inputs):
        x, = inputs
        y = numpy.logaddexp(0, self.beta * x.astype(numpy.float64)) \
            / self.beta
        return numpy.asarray(y, x.dtype),


def test_large_inputs_do_not_overflow():
    x = numpy.array([-1000., 0., 1000.], numpy.float32)
    with numpy.errstate(over='raise'):
        y = F.softplus(x)
    numpy.testing.assert_allclose(y.array, [0., numpy.log(2.), 1000.])


def test_node_class():
    y = F.softplus(chainer.Variable(numpy.ones(2, numpy.float32)))
    assert type(y.creator) is softplus.Softplus


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.softplus(numpy.ones((2,), numpy.int32))
