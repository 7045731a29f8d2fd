import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import squared_error
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (2, 3, 2), (), (0, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'function': ['squared_error', 'squared_difference'],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSquaredError(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
                     for _ in range(2))

    def forward(self, inputs, device):
        return getattr(F, self.function)(*inputs),

    def forward_expected(self, inputs):
        x0, x1 = inputs
        return numpy.asarray((x0 - x1) ** 2, self.dtype),


def test_node_class():
    y = F.squared_difference(
        chainer.Variable(numpy.arange(3, dtype=numpy.float32)),
        numpy.array([2., 1., 0.], numpy.float32))
    assert type(y.creator) is squared_error.SquaredError
    numpy.testing.assert_array_equal(y.array, [4., 0., 4.])


@pytest.mark.parametrize('x0, x1', [
    (numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float64)),
    (numpy.zeros(3, numpy.float32), numpy.zeros(2, numpy.float32)),
    (numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32)),
], ids=['dtype', 'shape', 'int'])
def test_invalid_inputs(x0, x1):
    with pytest.raises(type_check.InvalidType):
        F.squared_error(x0, x1)
