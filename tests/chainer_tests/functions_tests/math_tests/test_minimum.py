import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import minimum
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shapes': [((3, 2), (3, 2)), ((), ()), ((0, 3), (0, 3)),
               ((2, 3), (3,)), ((3, 1), (1, 2)), ((), (2, 2))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMinimum(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_double_backward_options = {'atol': 5e-3, 'rtol': 5e-3}

    def generate_inputs(self):
        shape1, shape2 = self.shapes
        while True:
            x1 = numpy.random.uniform(-1, 1, shape1).astype(self.dtype)
            x2 = numpy.random.uniform(-1, 1, shape2).astype(self.dtype)
            # Keep away from the kink where x1 == x2.
            if (numpy.abs(x1 - x2) > 0.1).all():
                return x1, x2

    def forward(self, inputs, device):
        return F.minimum(*inputs),

    def forward_expected(self, inputs):
        return numpy.asarray(numpy.minimum(*inputs)),


def test_label():
    x = chainer.Variable(numpy.ones((2,), numpy.float32))
    y = F.minimum(x, x)
    assert type(y.creator) is minimum.Minimum
    assert y.creator.label == 'Minimum'


def test_tie_gradient_goes_to_first_input():
    x1 = chainer.Variable(numpy.array([1., 2., 3.], numpy.float32))
    x2 = chainer.Variable(numpy.array([1., 2., 3.], numpy.float32))
    F.sum(F.minimum(x1, x2)).backward()
    numpy.testing.assert_array_equal(x1.grad, [1, 1, 1])
    numpy.testing.assert_array_equal(x2.grad, [0, 0, 0])


def test_broadcast_gradient():
    x1 = chainer.Variable(numpy.array([[0., 5.], [2., -1.]], numpy.float32))
    x2 = chainer.Variable(numpy.array([1., 1.], numpy.float32))
    F.sum(F.minimum(x1, x2)).backward()
    cond = x1.array <= x2.array
    numpy.testing.assert_array_equal(x1.grad, cond)
    numpy.testing.assert_array_equal(x2.grad, (~cond).sum(axis=0))


def test_second_order_with_one_grad_given():
    # Only the gradient of x1 is differentiated again, so the grad node
    # gets no gradient for its second output.
    x1 = chainer.Variable(numpy.array([0., 2., -1.]))
    x2 = chainer.Variable(numpy.array([1., 1., 1.]))
    gy = chainer.Variable(numpy.array([0.5, 0.25, 2.]))
    gx1, = chainer.grad([F.minimum(x1, x2)], [x1], grad_outputs=[gy],
                        enable_double_backprop=True)
    assert type(gx1.creator) is minimum.MinimumGrad
    ggy, = chainer.grad([F.sum(gx1 * numpy.array([1., 2., 3.]))], [gy])
    cond = x1.array <= x2.array
    numpy.testing.assert_array_equal(
        ggy.array, numpy.where(cond, [1, 2, 3], 0))


@pytest.mark.parametrize('dtypes', [
    (numpy.float32, numpy.float64),
    (numpy.int32, numpy.int32),
], ids=['mixed', 'int'])
def test_invalid_dtype(dtypes):
    with pytest.raises(type_check.InvalidType):
        F.minimum(numpy.ones((2,), dtypes[0]), numpy.ones((2,), dtypes[1]))


def test_invalid_shape():
    with pytest.raises(type_check.InvalidType):
        F.minimum(numpy.ones((2,), numpy.float32),
              numpy.ones((3,), numpy.float32))
