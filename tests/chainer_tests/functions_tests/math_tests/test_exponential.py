import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import exponential
from chainer.utils import type_check


# name: (NumPy reference, input range, FunctionNode class)
FUNCS = {
    'exp': (numpy.exp, (-1, 1), exponential.Exp),
    'log': (numpy.log, (0.5, 2), exponential.Log),
    'log2': (numpy.log2, (0.5, 2), exponential.Log2),
    'log10': (numpy.log10, (0.5, 2), exponential.Log10),
}


@testing.parameterize(*testing.product({
    'name': sorted(FUNCS),
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestExponential(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        lo, hi = FUNCS[self.name][1]
        return numpy.random.uniform(lo, hi, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(*inputs),

    def forward_expected(self, inputs):
        x, = inputs
        y = FUNCS[self.name][0](x.astype(numpy.float64))
        return numpy.asarray(y, x.dtype),


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_label_and_class(name):
    x = numpy.ones((2,), numpy.float32)
    y = getattr(F, name)(chainer.Variable(x))
    assert type(y.creator) is FUNCS[name][2]
    assert y.creator.label == name


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_zero_dim_output_is_array(name):
    y = getattr(F, name)(numpy.array(1.5, numpy.float32))
    assert isinstance(y.array, numpy.ndarray)
    assert y.array.dtype == numpy.float32


@pytest.mark.parametrize('name', sorted(FUNCS))
@pytest.mark.parametrize('dtype', [numpy.int32, numpy.bool_])
def test_non_float_input(name, dtype):
    with pytest.raises(type_check.InvalidType):
        getattr(F, name)(numpy.ones((2,), dtype))


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_two_inputs(name):
    x = numpy.ones((2,), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        FUNCS[name][2]().apply((x, x))


def test_log_of_non_positive():
    with numpy.errstate(divide='ignore', invalid='ignore'):
        y = F.log(numpy.array([0., -1.], numpy.float32))
    assert y.array[0] == -numpy.inf
    assert numpy.isnan(y.array[1])


def test_exp_retains_output_only():
    x = chainer.Variable(numpy.array([0.5, 1.0], numpy.float32))
    y = F.exp(x)
    node = y.creator
    assert node._input_indexes_to_retain is None
    assert node._output_indexes_to_retain == (0,)
