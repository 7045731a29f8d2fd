import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.functions.activation import prelu
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [{'x_shape': (4, 3, 2), 'W_shape': (3,)},
     {'x_shape': (4, 3, 2), 'W_shape': (3, 2)},
     {'x_shape': (4, 3), 'W_shape': ()},
     {'x_shape': (5,), 'W_shape': ()},
     {'x_shape': (0, 3, 2), 'W_shape': (3,)}],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32},
     {'dtype': numpy.float64}],
))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPReLU(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape)
        x[numpy.abs(x) < 0.1] = 0.5
        W = numpy.random.uniform(-1, 1, self.W_shape)
        return x.astype(self.dtype), numpy.asarray(W, self.dtype)

    def forward(self, inputs, device):
        x, W = inputs
        return F.prelu(x, W),

    def forward_expected(self, inputs):
        x, W = inputs
        W = W.reshape((1,) + W.shape + (1,) * (x.ndim - W.ndim - 1))
        return numpy.where(x >= 0, x, x * W).astype(x.dtype),


def test_one_output_gradient_only():
    # Double backprop where only the gradient of x is differentiated.
    x = chainer.Variable(numpy.array([[-1., 2.], [3., -4.]], numpy.float64))
    W = chainer.Variable(numpy.array([0.5, 0.25], numpy.float64))
    y = F.prelu(x, W)
    gx, = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
    gW, = chainer.grad([F.sum(gx)], [W])
    # On the negative part gx = 2 y dy/dx = 2 W^2 x, so d(gx)/dW = 4 W x.
    numpy.testing.assert_allclose(gW.array, [4 * 0.5 * -1, 4 * 0.25 * -4])


def test_gradient_of_weight_only():
    x = numpy.random.RandomState(0).uniform(-1, 1, (3, 2))
    W = numpy.array([0.3, -0.2])
    gy = numpy.random.RandomState(1).uniform(-1, 1, (3, 2))
    gradient_check.check_backward(
        lambda w: F.prelu(x, w), W, gy, dtype=numpy.float64)


def test_node_class():
    y = F.prelu(chainer.Variable(numpy.ones((2, 3), numpy.float32)),
                numpy.ones(3, numpy.float32))
    assert type(y.creator) is prelu.PReLUFunction


@pytest.mark.parametrize('x_shape, W_shape', [
    ((2, 3), (2,)), ((2, 3), (3, 1)), ((3,), (3,))], ids=str)
def test_shape_mismatch(x_shape, W_shape):
    with pytest.raises(type_check.InvalidType):
        F.prelu(numpy.ones(x_shape, numpy.float32),
                numpy.ones(W_shape, numpy.float32))


def test_dtype_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.prelu(numpy.ones((2, 3), numpy.float32),
                numpy.ones(3, numpy.float64))
