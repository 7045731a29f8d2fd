import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.activation import tanh
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(
    None,
    [{}, {'use_cuda': True, 'use_cudnn': 'never'},
     {'use_cuda': True, 'use_cudnn': 'always'}])
class TestTanh(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.tanh(inputs[0]),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(numpy.tanh(x.astype(numpy.float64)), x.dtype),


def test_node_class():
    y = F.tanh(chainer.Variable(numpy.ones(2, numpy.float32)))
    assert type(y.creator) is tanh.Tanh


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.tanh(numpy.ones((2,), numpy.int32))
