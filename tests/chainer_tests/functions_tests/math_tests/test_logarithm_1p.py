import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import logarithm_1p
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLog1p(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-0.5, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.log1p(*inputs),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(numpy.log1p(x.astype(numpy.float64)), x.dtype),


def test_label():
    y = F.log1p(chainer.Variable(numpy.zeros((2,), numpy.float32)))
    assert type(y.creator) is logarithm_1p.Log1p
    assert y.creator.label == 'log1p'


def test_precision_near_zero():
    x = numpy.array([1e-10, -1e-12], numpy.float64)
    numpy.testing.assert_allclose(F.log1p(x).array, x, rtol=1e-9)


def test_zero_dim_output_is_array():
    y = F.log1p(numpy.array(0.5, numpy.float32))
    assert isinstance(y.array, numpy.ndarray)
    assert y.dtype == numpy.float32


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.log1p(numpy.ones((2,), numpy.int32))
