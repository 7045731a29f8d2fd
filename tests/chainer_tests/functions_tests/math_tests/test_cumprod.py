import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.math import cumprod as cumprod_module
from chainer import gradient_check
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape_axis': [((3, 2, 5), None), ((3, 2, 5), 0), ((3, 2, 5), 1),
                   ((3, 2, 5), -1), ((7,), 0), ((), None), ((0, 3), 0),
                   ((0, 3), None)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCumprod(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        x = numpy.random.uniform(0.5, 1.5, self.shape)
        x *= numpy.random.choice([-1, 1], self.shape)
        return numpy.asarray(x, self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.cumprod(x, axis=self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        y = numpy.cumprod(x.astype(numpy.float64), axis=self.axis)
        return y.astype(self.dtype),


@pytest.mark.parametrize('axis', [None, 0, 1], ids=str)
@testing.fix_random()
def test_gradient_with_zeros(axis):
    x = numpy.array([[0., 2., 3., 0.5], [0., 0., 4., 1.], [1., 2., 0., 3.]])
    rng = numpy.random.RandomState(0)
    gy = rng.uniform(-1, 1, numpy.cumprod(x, axis=axis).shape)
    ggx = rng.uniform(-1, 1, x.shape)

    def f(v):
        return F.cumprod(v, axis=axis)
    gradient_check.check_backward(f, x, gy, atol=1e-5, rtol=1e-5)
    # The numerical second derivative carries an error of order
    # eps ** 2 times the third derivative, which is not zero here.
    gradient_check.check_double_backward(f, x, gy, ggx, atol=1e-4,
                                         rtol=1e-4)


def test_gradient_with_zeros_values():
    x = chainer.Variable(numpy.array([[0., 2., 3.], [0., 0., 4.]]))
    y = F.cumprod(x, axis=1)
    y.grad = numpy.ones((2, 3))
    y.backward()
    # d/dx0 (x0 + x0 x1 + x0 x1 x2) = 1 + x1 + x1 x2
    numpy.testing.assert_array_equal(x.grad, [[9., 0., 0.], [1., 0., 0.]])


@pytest.mark.parametrize('reverse', [False, True])
def test_cumprodsum(reverse):
    # z[i] = xadd[i] + xmul[i] * z[i -/+ 1], checked against a loop.
    rng = numpy.random.RandomState(0)
    xmul = rng.uniform(-1, 1, (3, 9))
    xmul[0, 4] = 0
    xadd = rng.uniform(-1, 1, (3, 9))
    node = cumprod_module.Cumprodsum(1, reverse)
    z, = node.apply((xmul, xadd))
    expected = numpy.empty_like(xadd)
    order = range(8, -1, -1) if reverse else range(9)
    previous = numpy.zeros(3)
    for i in order:
        previous = xadd[:, i] + xmul[:, i] * previous
        expected[:, i] = previous
    numpy.testing.assert_allclose(z.array, expected, rtol=1e-12)

    def f(a, b):
        return cumprod_module.Cumprodsum(1, reverse).apply((a, b))
    gz = rng.uniform(-1, 1, xadd.shape)
    gg = (rng.uniform(-1, 1, xadd.shape), rng.uniform(-1, 1, xadd.shape))
    gradient_check.check_backward(f, (xmul, xadd), gz, atol=1e-6,
                                  rtol=1e-6)
    gradient_check.check_double_backward(f, (xmul, xadd), gz, gg,
                                         atol=1e-6, rtol=1e-6)


def test_class():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    assert type(F.cumprod(x).creator).__name__ == 'Cumprod'


@pytest.mark.parametrize('axis', [2, -3], ids=str)
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType):
        F.cumprod(numpy.ones((2, 3), numpy.float32), axis=axis)


@pytest.mark.parametrize('axis', [(1,), 1.0], ids=['tuple', 'float'])
def test_axis_type(axis):
    with pytest.raises(TypeError, match='axis must be int or None'):
        F.cumprod(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_integer_input():
    with pytest.raises(type_check.InvalidType):
        F.cumprod(numpy.ones((2, 3), numpy.int32))
