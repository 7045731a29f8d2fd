import numpy
import pytest

from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [{'shape': (3, 6), 'pool_size': 2, 'axis': 1},
     {'shape': (3, 6), 'pool_size': 3, 'axis': -1},
     {'shape': (3, 4, 2), 'pool_size': 2, 'axis': 1},
     {'shape': (4, 3, 2), 'pool_size': 2, 'axis': 0},
     {'shape': (3, 4, 2), 'pool_size': 2, 'axis': 2},
     {'shape': (3, 4), 'pool_size': 1, 'axis': 1},
     {'shape': (0, 4), 'pool_size': 2, 'axis': 1}],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32},
     {'dtype': numpy.float64}],
))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMaxout(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        # Distinct, well separated values: the maximum is never a tie.
        size = int(numpy.prod(self.shape))
        x = numpy.random.permutation(size).reshape(self.shape) * 0.1
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.maxout(inputs[0], self.pool_size, axis=self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        axis = self.axis % x.ndim
        shape = (x.shape[:axis] + (x.shape[axis] // self.pool_size,
                                   self.pool_size) + x.shape[axis + 1:])
        return x.reshape(shape).max(axis=axis + 1),


def test_example():
    x = numpy.arange(12, dtype=numpy.float32).reshape(2, 6)
    numpy.testing.assert_array_equal(
        F.maxout(x, 3).array, [[2., 5.], [8., 11.]])


@pytest.mark.parametrize('pool_size', [0, -1])
def test_pool_size_must_be_positive(pool_size):
    with pytest.raises(ValueError, match='pool_size must be a positive'):
        F.maxout(numpy.ones((2, 4), numpy.float32), pool_size)


def test_axis_length_must_be_divisible():
    with pytest.raises(type_check.InvalidType):
        F.maxout(numpy.ones((2, 5), numpy.float32), 2)
