import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.activation import hard_sigmoid
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (), (0, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestHardSigmoid(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-4, 4, self.shape)
        x[numpy.abs(numpy.abs(x) - 2.5) < 0.1] = 1.
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.hard_sigmoid(inputs[0]),

    def forward_expected(self, inputs):
        x, = inputs
        y = numpy.clip(x.astype(numpy.float64) * 0.2 + 0.5, 0, 1)
        return numpy.asarray(y, x.dtype),


def test_example_and_class():
    x = numpy.array([-2.6, -1., 0., 1., 2.6])
    y = F.hard_sigmoid(chainer.Variable(x))
    assert type(y.creator) is hard_sigmoid.HardSigmoid
    numpy.testing.assert_allclose(y.array, [0., 0.3, 0.5, 0.7, 1.])


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.hard_sigmoid(numpy.ones((2,), numpy.int32))
