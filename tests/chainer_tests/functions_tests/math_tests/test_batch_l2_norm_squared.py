import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (4, 3, 5), (4, 2, 3, 2), (1, 1), (0, 3), (3, 0)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBatchL2NormSquared(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.batch_l2_norm_squared(x),

    def forward_expected(self, inputs):
        x, = inputs
        x = x.astype(numpy.float64).reshape(len(x), -1) if x.size else \
            numpy.zeros((len(x), 0))
        return (x * x).sum(axis=1).astype(self.dtype),


def test_classes():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = F.batch_l2_norm_squared(x)
    assert type(y.creator).__name__ == 'BatchL2NormSquared'
    gx, = chainer.grad([y], [x], [numpy.ones(2, numpy.float32)],
                       enable_double_backprop=True)
    assert type(gx.creator).__name__ == 'BatchL2NormSquaredGrad'
    numpy.testing.assert_array_equal(gx.array, 2 * x.array)


@pytest.mark.parametrize('shape', [(3,), ()], ids=str)
def test_needs_a_batch_axis(shape):
    with pytest.raises(type_check.InvalidType):
        F.batch_l2_norm_squared(numpy.ones(shape, numpy.float32))


def test_integer_input():
    with pytest.raises(type_check.InvalidType):
        F.batch_l2_norm_squared(numpy.ones((2, 3), numpy.int32))
