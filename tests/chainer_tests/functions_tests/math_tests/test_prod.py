import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape_axis': [
        ((3, 2, 4), None), ((3, 2, 4), 0), ((3, 2, 4), 1), ((3, 2, 4), -1),
        ((3, 2, 4), (0, 2)), ((3, 2, 4), (2, 0)), ((3, 2, 4), (0, 1, 2)),
        ((), None), ((0, 3), 1), ((0, 3), 0),
    ],
    'keepdims': [False, True],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestProd(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-3, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-3, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        x = numpy.random.uniform(0.5, 1.5, self.shape)
        x *= numpy.random.choice([-1, 1], self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.prod(x, axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        x, = inputs
        y = numpy.prod(x.astype(numpy.float64), axis=self.axis,
                       keepdims=self.keepdims)
        return numpy.asarray(y, self.dtype),


@pytest.mark.parametrize('axis', [None, 1, (0, 1)], ids=str)
@testing.fix_random()
def test_gradient_with_zeros(axis):
    x = numpy.array([[0., 2., 3.], [0., 0., 4.], [1., 2., 3.]])
    gy = numpy.random.RandomState(0).uniform(
        -1, 1, numpy.prod(x, axis=axis).shape)
    ggx = numpy.random.RandomState(1).uniform(-1, 1, x.shape)

    def f(v):
        return F.prod(v, axis=axis)
    # The product is smooth at zeros: no division there.
    gradient_check.check_backward(f, x, gy, atol=1e-5, rtol=1e-5)
    # The numerical second derivative carries an error of order
    # eps ** 2 times the third derivative, which is not zero here.
    gradient_check.check_double_backward(f, x, gy, ggx, atol=1e-4,
                                         rtol=1e-4)


def test_gradient_with_zeros_values():
    x = chainer.Variable(
        numpy.array([[0., 2., 3.], [0., 0., 4.], [1., 2., 3.]]))
    y = F.prod(x, axis=1)
    y.grad = numpy.ones(3)
    y.backward()
    numpy.testing.assert_array_equal(
        x.grad, [[6., 0., 0.], [0., 0., 0.], [6., 3., 2.]])


def test_class():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    assert type(F.prod(x).creator).__name__ == 'Prod'


@pytest.mark.parametrize('axis', [2, -3, (0, 2)], ids=str)
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType):
        F.prod(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.prod(x.astype(numpy.int32))
    with pytest.raises(ValueError, match='duplicate value in axis'):
        F.prod(x, axis=(0, 0))
    with pytest.raises(TypeError, match='None, int or tuple of int'):
        F.prod(x, axis=[0])
