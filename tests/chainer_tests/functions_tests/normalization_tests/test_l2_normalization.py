import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.utils import type_check


def _expected(x, eps, axis):
    x = x.astype(numpy.float64)
    norm = numpy.sqrt(numpy.sum(x * x, axis=axis, keepdims=True))
    return x / (norm + eps)


@testing.parameterize(*(testing.product({
    'shape_axis': [((4, 5), 1), ((4, 3, 2), (1, 2)), ((4, 3, 2), -1),
                   ((4, 3, 2), 0), ((3,), 0), ((2, 3, 2, 2), (0, 2, 3))],
    'dtype': [numpy.float32],
}) + testing.product({
    'shape_axis': [((4, 5), 1)],
    'dtype': [numpy.float16, numpy.float64],
})))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestNormalizeL2(testing.FunctionTestCase):

    eps = 1e-5

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        shape, _ = self.shape_axis
        x = numpy.random.uniform(0.5, 1, shape) * numpy.random.choice(
            [-1, 1], shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.normalize(x, eps=self.eps, axis=self.shape_axis[1]),

    def forward_expected(self, inputs):
        x, = inputs
        y = _expected(x, self.eps, self.shape_axis[1])
        return y.astype(self.dtype),


@pytest.mark.parametrize('dtype', [
    numpy.float16, numpy.float32, numpy.float64])
def test_zero_vectors(dtype):
    x = numpy.zeros((3, 4), dtype)
    x[1] = [1, 2, 3, 4]
    v = chainer.Variable(x)
    y = F.normalize(v, eps=0.5)
    testing.assert_allclose(y.array, _expected(x, 0.5, 1), atol=1e-3)
    gy = numpy.arange(12).reshape(3, 4).astype(dtype)
    y.grad = gy
    y.backward()
    # Around zero, y = x / eps to first order.
    testing.assert_allclose(v.grad[0], gy[0] / 0.5)
    testing.assert_allclose(v.grad[2], gy[2] / 0.5)
    assert numpy.isfinite(v.grad).all()


@testing.fix_random()
def test_zero_vectors_gradients():
    # With eps larger than the step of numerical differentiation, the
    # gradient at a zero vector is checked numerically too.
    x = numpy.random.uniform(-1, 1, (3, 4))
    x[0] = 0
    gy = numpy.random.uniform(-1, 1, (3, 4))

    def f(x):
        return F.normalize(x, eps=2.)

    gradient_check.check_backward(f, x, gy, atol=1e-4, rtol=1e-3)

    def g(x):
        y = F.normalize(x, eps=2.)
        gx, = chainer.grad([F.sum(y * y * y)], [x],
                           enable_double_backprop=True)
        return gx

    v = chainer.Variable(x)
    gx = g(v)
    assert numpy.isfinite(gx.array).all()
    F.sum(gx * gx).backward()
    assert numpy.isfinite(v.grad).all()


def test_node_name():
    x = chainer.Variable(numpy.ones((2, 4), numpy.float32))
    assert F.normalize(x).creator.label == 'NormalizeL2'


def test_float16_does_not_overflow():
    x = numpy.full((1, 4), 1000, numpy.float16)
    testing.assert_allclose(F.normalize(x).array, numpy.full((1, 4), .5),
                            atol=1e-3)


@pytest.mark.parametrize('x, axis', [
    (numpy.ones((2, 3), numpy.int32), 1),
    (numpy.ones((2, 3), numpy.float32), 2),
    (numpy.ones((2, 3), numpy.float32), -3),
], ids=['int', 'axis', 'negative-axis'])
def test_invalid_type(x, axis):
    with pytest.raises(type_check.InvalidType):
        F.normalize(x, axis=axis)
