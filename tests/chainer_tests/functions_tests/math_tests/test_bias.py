import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing


# With y as large as x the gradients are the output gradient itself, which
# check_double_backward warns about.
pytestmark = pytest.mark.filterwarnings(
    'ignore:outputs contains a Variable without grad')


@testing.parameterize(*testing.product({
    'case': [
        ((3, 2, 3), (2,), 1),
        ((3, 2, 3), (2, 3), 1),
        ((3, 2, 3), (3, 2), 0),
        ((3, 2, 3), (3,), 2),
        ((2, 3, 4, 5), (4, 5), 2),
        ((3, 4), (3, 4), 0),
        ((0, 3), (3,), 1),
        ((3, 2), (), 1),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBias(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        x_shape, y_shape, _ = self.case
        x = numpy.random.uniform(-1, 1, x_shape).astype(self.dtype)
        y = numpy.random.uniform(-1, 1, y_shape).astype(self.dtype)
        return x, y

    def forward(self, inputs, device):
        x, y = inputs
        return F.bias(x, y, axis=self.case[2]),

    def forward_expected(self, inputs):
        x, y = inputs
        axis = self.case[2]
        y = y.reshape((1,) * axis + y.shape +
                      (1,) * (x.ndim - axis - y.ndim))
        return numpy.asarray(x + y, x.dtype),


def test_default_axis_is_one():
    x = numpy.ones((2, 3, 4), numpy.float32)
    y = numpy.array([1., 2., 3.], numpy.float32)
    numpy.testing.assert_array_equal(
        F.bias(x, y).array, F.bias(x, y, axis=1).array)


def test_gradient_of_y_is_summed():
    x = chainer.Variable(numpy.full((2, 3, 4), 2., numpy.float32))
    y = chainer.Variable(numpy.ones((3,), numpy.float32))
    F.sum(F.bias(x, y)).backward()
    assert y.grad.shape == (3,)


def test_shape_mismatch_in_debug_mode():
    x = numpy.ones((2, 3, 4), numpy.float32)
    y = numpy.ones((4,), numpy.float32)
    with chainer.using_config('debug', True):
        with pytest.raises(AssertionError):
            F.bias(x, y, axis=1)
