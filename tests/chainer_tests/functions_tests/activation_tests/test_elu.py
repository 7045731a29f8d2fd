import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.activation import elu
from chainer.utils import type_check


def _elu(x, alpha):
    x = x.astype(numpy.float64)
    return numpy.where(x > 0, x, alpha * numpy.expm1(numpy.minimum(x, 0)))


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'alpha': [1.0, 2.5, -0.5],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestELU(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        x[numpy.abs(x) < 0.1] = 0.5
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.elu(inputs[0], alpha=self.alpha),

    def forward_expected(self, inputs):
        x, = inputs
        return _elu(x, self.alpha).astype(x.dtype),


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSELU(testing.FunctionTestCase):

    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (3, 4))
        x[numpy.abs(x) < 0.1] = 0.5
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.selu(inputs[0]),

    def forward_expected(self, inputs):
        x, = inputs
        return (self.scale * _elu(x, self.alpha)).astype(x.dtype),


def test_selu_parameters():
    x = numpy.array([-1., 2.], numpy.float64)
    y = F.selu(x, alpha=2.0, scale=3.0)
    numpy.testing.assert_allclose(y.array, [3 * 2 * numpy.expm1(-1), 6.])


def test_node_class_and_extremes():
    x = chainer.Variable(
        numpy.array([-numpy.inf, -1., 0., numpy.inf], numpy.float32))
    y = F.elu(x)
    assert type(y.creator) is elu.ELU
    numpy.testing.assert_allclose(
        y.array, [-1., numpy.expm1(-1.), 0., numpy.inf], rtol=1e-6)


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.elu(numpy.ones((2,), numpy.int32))
