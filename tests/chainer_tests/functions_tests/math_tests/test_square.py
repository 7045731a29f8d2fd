import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import square
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSquare(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.square(*inputs),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(numpy.square(x.astype(numpy.float64)), x.dtype),


def test_label():
    y = F.square(chainer.Variable(numpy.ones((2,), numpy.float32)))
    assert type(y.creator) is square.Square
    assert y.creator.label == 'square'


def test_zero_dim_output_is_array():
    y = F.square(numpy.array(1.5, numpy.float16))
    assert isinstance(y.array, numpy.ndarray)
    assert y.dtype == numpy.float16
    assert float(y.array) == 2.25


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.square(numpy.ones((2,), numpy.int32))
