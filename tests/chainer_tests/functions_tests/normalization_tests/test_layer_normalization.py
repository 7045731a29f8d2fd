import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(1, 5), (4, 7), (3, 1)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLayerNormalization(testing.FunctionTestCase):

    eps = 1e-3

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_forward_options = {'atol': 1e-4, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}

    def generate_inputs(self):
        units = self.shape[1]
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(.5, 1, units).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, units).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return F.layer_normalization(x, gamma, beta, eps=self.eps),

    def forward_expected(self, inputs):
        x, gamma, beta = inputs
        x = x.astype(numpy.float64)
        x_hat = (x - x.mean(axis=1, keepdims=True)) / numpy.sqrt(
            x.var(axis=1, keepdims=True) + self.eps)
        return (x_hat * gamma + beta).astype(self.dtype),


@testing.fix_random()
def test_third_order():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (3, 4))
    gamma = rng.uniform(.5, 1, 4)
    beta = rng.uniform(-1, 1, 4)
    w = rng.uniform(-1, 1, x.shape)

    def f(x, gamma):
        y = F.layer_normalization(x, gamma, beta)
        return chainer.grad([F.sum(y * y * y * w)], [x, gamma],
                            enable_double_backprop=True)

    gys = (rng.uniform(-1, 1, x.shape), rng.uniform(-1, 1, 4))
    ggs = (rng.uniform(-1, 1, x.shape), rng.uniform(-1, 1, 4))
    gradient_check.check_double_backward(f, (x, gamma), gys, ggs,
                                         atol=1e-4, rtol=1e-3)


def test_node_name():
    x = chainer.Variable(numpy.ones((2, 4), numpy.float32))
    y = F.layer_normalization(x, numpy.ones(4, numpy.float32),
                              numpy.zeros(4, numpy.float32))
    assert y.creator.label == 'LayerNormalization'


@pytest.mark.parametrize('x_shape, gamma_shape, dtype, param_dtype', [
    ((2, 4), (3,), numpy.float32, numpy.float32),
    ((2, 4, 1), (4,), numpy.float32, numpy.float32),
    ((2, 4), (4,), numpy.float32, numpy.float64),
    ((2, 4), (4,), numpy.int32, numpy.int32),
], ids=['units', 'ndim', 'param-dtype', 'int'])
def test_invalid_type(x_shape, gamma_shape, dtype, param_dtype):
    x = numpy.ones(x_shape, dtype)
    gamma = numpy.ones(gamma_shape, param_dtype)
    with pytest.raises(type_check.InvalidType):
        F.layer_normalization(x, gamma, gamma)
