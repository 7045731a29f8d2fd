import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(2, 3), (3, 4, 2), (0, 3, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFlipLR(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        a, = inputs
        return F.fliplr(a),

    def forward_expected(self, inputs):
        a, = inputs
        return numpy.fliplr(a),


def test_class_and_view():
    a = numpy.zeros((2, 3), numpy.float32)
    y = F.fliplr(chainer.Variable(a))
    assert type(y.creator).__name__ == 'FlipLR'
    assert numpy.shares_memory(a, y.array)


def test_too_few_dimensions():
    with pytest.raises(type_check.InvalidType):
        F.fliplr(numpy.zeros((3,) * (2 - 1), numpy.float32))


def test_integer_input():
    with pytest.raises(type_check.InvalidType):
        F.fliplr(numpy.zeros((2, 3), numpy.int32))
