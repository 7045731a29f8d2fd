import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import arctanh
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestArctanh(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-.8, .8, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.arctanh(*inputs),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(numpy.arctanh(x.astype(numpy.float64)), x.dtype),


def test_label():
    # Like the original, Arctanh has no label of its own.
    y = F.arctanh(chainer.Variable(numpy.zeros((2,), numpy.float32)))
    assert type(y.creator) is arctanh.Arctanh
    assert y.creator.label == 'Arctanh'


def test_out_of_domain():
    with numpy.errstate(divide='ignore', invalid='ignore'):
        y = F.arctanh(numpy.array([1., -1., 2.], numpy.float32)).array
    assert y[0] == numpy.inf
    assert y[1] == -numpy.inf
    assert numpy.isnan(y[2])


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.arctanh(numpy.ones((2,), numpy.int32))
