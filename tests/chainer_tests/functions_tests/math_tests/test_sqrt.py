import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import sqrt
from chainer.utils import type_check


FUNCS = {
    'sqrt': numpy.sqrt,
    'rsqrt': lambda x: 1 / numpy.sqrt(x),
}


@testing.parameterize(*testing.product({
    'name': sorted(FUNCS),
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSqrt(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(0.5, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(*inputs),

    def forward_expected(self, inputs):
        x, = inputs
        y = FUNCS[self.name](x.astype(numpy.float64))
        return numpy.asarray(y, x.dtype),


def test_sqrt_label():
    y = F.sqrt(chainer.Variable(numpy.ones((2,), numpy.float32)))
    assert type(y.creator) is sqrt.Sqrt
    assert y.creator.label == 'sqrt'


def test_rsqrt_on_cpu_is_division_of_sqrt():
    # As in the original: 1.0 / sqrt(x) on NumPy arrays.
    y = F.rsqrt(chainer.Variable(numpy.ones((2,), numpy.float32)))
    assert y.creator.label == '1.0 / _'
    x_node, = y.creator.inputs
    assert type(x_node.creator) is sqrt.Sqrt


def test_rsqrt_gpu_label():
    assert sqrt.RsqrtGPU().label == 'rsqrt'


def test_sqrt_of_negative_is_nan():
    with numpy.errstate(invalid='ignore'):
        y = F.sqrt(numpy.array([-1., 4.], numpy.float32))
    assert numpy.isnan(y.array[0])
    assert y.array[1] == 2


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_non_float_input(name):
    with pytest.raises(type_check.InvalidType):
        getattr(F, name)(numpy.ones((2,), numpy.int32))


@testing.attr.gpu
def test_rsqrt_gpu_node():
    import cupy
    y = F.rsqrt(chainer.Variable(cupy.full((2,), 4., cupy.float32)))
    assert type(y.creator) is sqrt.RsqrtGPU
    testing.assert_allclose(y.array, [0.5, 0.5])
