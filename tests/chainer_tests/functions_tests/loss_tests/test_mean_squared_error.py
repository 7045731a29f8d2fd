import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import mean_squared_error
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (2, 3, 2), ()],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMeanSquaredError(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
                     for _ in range(2))

    def forward(self, inputs, device):
        return F.mean_squared_error(*inputs),

    def forward_expected(self, inputs):
        x0, x1 = inputs
        diff = x0.astype(numpy.float64) - x1
        return numpy.asarray((diff * diff).mean(), self.dtype),


def test_docstring_values():
    x0 = numpy.array([1, 2, 3, 4], numpy.float32)
    x1 = numpy.zeros(4, numpy.float32)
    y = F.mean_squared_error(chainer.Variable(x0), x1)
    assert type(y.creator) is mean_squared_error.MeanSquaredError
    assert y.shape == () and y.dtype == numpy.float32
    assert float(y.array) == 7.5


def test_gradient_value():
    x0 = chainer.Variable(numpy.array([1., 3.], numpy.float32))
    x1 = chainer.Variable(numpy.array([0., 0.], numpy.float32))
    F.mean_squared_error(x0, x1).backward()
    numpy.testing.assert_allclose(x0.grad, [1., 3.])
    numpy.testing.assert_allclose(x1.grad, [-1., -3.])


@pytest.mark.parametrize('x0, x1', [
    (numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float64)),
    (numpy.zeros((2, 3), numpy.float32), numpy.zeros((3, 2), numpy.float32)),
    (numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32)),
], ids=['dtype', 'shape', 'int'])
def test_invalid_inputs(x0, x1):
    with pytest.raises(type_check.InvalidType):
        F.mean_squared_error(x0, x1)
