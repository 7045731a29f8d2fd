import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import absolute_error
from chainer.utils import type_check


def _inputs(shape, dtype):
    x0 = numpy.random.uniform(-1, 1, shape).astype(dtype)
    # keep |x0 - x1| away from the kink at 0
    diff = numpy.random.uniform(0.2, 1, shape) * numpy.random.choice(
        [-1, 1], shape)
    return x0, numpy.asarray(x0 + diff, dtype)


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (2, 3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAbsoluteError(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return _inputs(self.shape, self.dtype)

    def forward(self, inputs, device):
        return F.absolute_error(*inputs),

    def forward_expected(self, inputs):
        x0, x1 = inputs
        return numpy.asarray(numpy.abs(x0 - x1), self.dtype),


def test_node_class_and_output():
    x = chainer.Variable(numpy.array([1., -2.], numpy.float32))
    y = F.absolute_error(x, numpy.array([0., 1.], numpy.float32))
    assert type(y.creator) is absolute_error.AbsoluteError
    assert y.creator.label == 'AbsoluteError'
    numpy.testing.assert_array_equal(y.array, [1., 3.])
    y.grad = numpy.array([2., 5.], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [2., -5.])


@pytest.mark.parametrize('x0, x1', [
    (numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float64)),
    (numpy.zeros(3, numpy.float32), numpy.zeros(4, numpy.float32)),
    (numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32)),
], ids=['dtype', 'shape', 'int'])
def test_invalid_inputs(x0, x1):
    with pytest.raises(type_check.InvalidType):
        F.absolute_error(x0, x1)
