import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import huber_loss
from chainer.utils import type_check


def _expected(x, t, delta, reduce):
    a = numpy.abs(x.astype(numpy.float64) - t)
    y = numpy.where(a <= delta, 0.5 * a * a, delta * (a - 0.5 * delta))
    if reduce == 'sum_along_second_axis':
        y = y.sum(axis=1)
    return numpy.asarray(y, x.dtype)


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (2, 3, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'delta': [0.5, 1.5],
    'reduce': ['sum_along_second_axis', 'no'],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestHuberLoss(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape)
        diff = numpy.random.uniform(-2, 2, self.shape)
        # keep |x - t| away from delta, where the curvature jumps
        near = numpy.abs(numpy.abs(diff) - self.delta) < 0.1
        diff[near] *= 2
        return x.astype(self.dtype), (x + diff).astype(self.dtype)

    def forward(self, inputs, device):
        x, t = inputs
        return F.huber_loss(x, t, self.delta, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t = inputs
        return _expected(x, t, self.delta, self.reduce),


def test_docstring_values():
    x = numpy.array([[-2., 3., 0.5], [5., 2., -0.5]], numpy.float32)
    t = numpy.array([[-2., 3., 0.], [10., 2., -0.5]], numpy.float32)
    y = F.huber_loss(chainer.Variable(x), t, delta=1.0)
    assert type(y.creator) is huber_loss.HuberLoss
    numpy.testing.assert_array_equal(y.array, [0.125, 4.5])
    y = F.huber_loss(x, t, delta=1.0, reduce='no')
    assert y.shape == (2, 3)


def test_zero_dimensional_without_reduction():
    y = F.huber_loss(numpy.array(3., numpy.float32),
                     numpy.array(0., numpy.float32), 1.0, reduce='no')
    assert float(y.array) == 2.5


def test_invalid_reduce():
    with pytest.raises(ValueError, match='sum_along_second_axis'):
        huber_loss.HuberLoss(1.0, reduce='mean')


@pytest.mark.parametrize('x, t', [
    (numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3), numpy.float64)),
    (numpy.zeros((2, 3), numpy.float32), numpy.zeros((3, 2), numpy.float32)),
    (numpy.zeros((2, 3), numpy.int32), numpy.zeros((2, 3), numpy.int32)),
    (numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float32)),
], ids=['dtype', 'shape', 'int', 'ndim'])
def test_invalid_inputs(x, t):
    with pytest.raises(type_check.InvalidType):
        F.huber_loss(x, t, 1.0)
