import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import hyperbolic
from chainer.utils import type_check


FUNCS = {
    'cosh': (numpy.cosh, hyperbolic.Cosh),
    'sinh': (numpy.sinh, hyperbolic.Sinh),
}


@testing.parameterize(*testing.product({
    'name': sorted(FUNCS),
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestHyperbolic(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(*inputs),

    def forward_expected(self, inputs):
        x, = inputs
        y = FUNCS[self.name][0](x.astype(numpy.float64))
        return numpy.asarray(y, x.dtype),


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_label(name):
    y = getattr(F, name)(chainer.Variable(numpy.zeros((2,), numpy.float32)))
    assert type(y.creator) is FUNCS[name][1]
    assert y.creator.label == name


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_non_float_input(name):
    with pytest.raises(type_check.InvalidType):
        getattr(F, name)(numpy.ones((2,), numpy.int32))
