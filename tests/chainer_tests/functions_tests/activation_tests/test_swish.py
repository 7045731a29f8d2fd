import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.activation import swish
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [{'x_shape': (4, 3, 2), 'beta_shape': (3,)},
     {'x_shape': (4, 3, 2), 'beta_shape': (3, 2)},
     {'x_shape': (4, 3), 'beta_shape': ()},
     {'x_shape': (0, 3), 'beta_shape': (3,)}],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32},
     {'dtype': numpy.float64}],
))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSwish(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, self.beta_shape)
        return x, numpy.asarray(beta, self.dtype)

    def forward(self, inputs, device):
        x, beta = inputs
        return F.swish(x, beta),

    def forward_expected(self, inputs):
        x, beta = inputs
        beta = beta.reshape(
            (1,) + beta.shape + (1,) * (x.ndim - beta.ndim - 1))
        x64 = x.astype(numpy.float64)
        y = x64 / (1 + numpy.exp(-beta * x64))
        return y.astype(x.dtype),


def test_only_gx_is_differentiated_again():
    x = chainer.Variable(numpy.array([[-1., 2.]], numpy.float64))
    beta = chainer.Variable(numpy.array([0.5, 1.5], numpy.float64))
    y = F.swish(x, beta)
    gx, = chainer.grad([F.sum(y)], [x], enable_double_backprop=True)
    ggx, = chainer.grad([F.sum(gx)], [x])
    eps = 1e-6
    def d(v):
        s = 1 / (1 + numpy.exp(-beta.array * v))
        return s + beta.array * v * s * (1 - s)
    expected = (d(x.array + eps) - d(x.array - eps)) / (2 * eps)
    numpy.testing.assert_allclose(ggx.array, expected, rtol=1e-5)


def test_node_class():
    y = F.swish(chainer.Variable(numpy.ones((2, 3), numpy.float32)),
                numpy.ones(3, numpy.float32))
    assert type(y.creator) is swish.Swish


@pytest.mark.parametrize('x_shape, beta_shape', [
    ((2, 3), (2,)), ((2, 3), (2, 3)), ((3,), (3,))], ids=str)
def test_shape_mismatch(x_shape, beta_shape):
    with pytest.raises(type_check.InvalidType):
        F.swish(numpy.ones(x_shape, numpy.float32),
                numpy.ones(beta_shape, numpy.float32))
