import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import mean_absolute_error
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (2, 3, 2), ()],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMeanAbsoluteError(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x0 = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        diff = numpy.random.uniform(0.2, 1, self.shape) * numpy.random.choice(
            [-1, 1], self.shape)
        return x0, numpy.asarray(x0 + diff, self.dtype)

    def forward(self, inputs, device):
        return F.mean_absolute_error(*inputs),

    def forward_expected(self, inputs):
        x0, x1 = inputs
        diff = x0.astype(numpy.float64) - x1
        return numpy.asarray(numpy.abs(diff).mean(), self.dtype),


def test_docstring_values():
    x0 = numpy.array([[1, 2], [3, 4]], numpy.float32)
    x1 = numpy.full((2, 2), 8, numpy.float32)
    y = F.mean_absolute_error(chainer.Variable(x0), x1)
    assert type(y.creator) is mean_absolute_error.MeanAbsoluteError
    assert y.shape == () and y.dtype == numpy.float32
    assert float(y.array) == 5.5


def test_half_precision_sum_does_not_overflow():
    x0 = numpy.full((200, 200), 60000, numpy.float16)
    x1 = numpy.zeros((200, 200), numpy.float16)
    y = F.mean_absolute_error(x0, x1)
    assert numpy.isfinite(y.array)
    testing.assert_allclose(y.array, 60000, rtol=1e-3)


@pytest.mark.parametrize('x0, x1', [
    (numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float16)),
    (numpy.zeros((3, 1), numpy.float32), numpy.zeros(3, numpy.float32)),
    (numpy.zeros(3, numpy.int64), numpy.zeros(3, numpy.int64)),
], ids=['dtype', 'shape', 'int'])
def test_invalid_inputs(x0, x1):
    with pytest.raises(type_check.InvalidType):
        F.mean_absolute_error(x0, x1)
