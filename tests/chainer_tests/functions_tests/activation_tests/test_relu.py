import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.activation import relu
from chainer.utils import type_check


def _away_from(x, points, margin=0.1):
    # Moves the values of x near a kink of the function (``points``) out
    # of reach of the numerical gradient.
    for p in points:
        near = numpy.abs(x - p) < margin
        x[near] = p + margin * 2
    return x


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(
    None,
    [{}, {'use_cuda': True, 'use_cudnn': 'never'},
     {'use_cuda': True, 'use_cudnn': 'always'}])
class TestReLU(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return _away_from(x, [0]),

    def forward(self, inputs, device):
        return F.relu(*inputs),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(numpy.maximum(x, 0), x.dtype),


def test_node_class_and_output_type():
    y = F.relu(chainer.Variable(numpy.array([-1., 2.], numpy.float32)))
    assert type(y.creator) is relu.ReLU
    assert y.creator.label == 'ReLU'
    assert isinstance(F.relu(numpy.array(-1., numpy.float32)).array,
                      numpy.ndarray)


def test_gradient_is_masked():
    x = chainer.Variable(numpy.array([-1., 0., 2.], numpy.float32))
    y = F.relu(x)
    y.grad = numpy.array([3., 4., 5.], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [0., 0., 5.])


def test_nan_propagates():
    y = F.relu(numpy.array([numpy.nan, -1.], numpy.float32))
    assert numpy.isnan(y.array[0]) and y.array[1] == 0


@pytest.mark.parametrize('dtype', [numpy.int32, numpy.bool_])
def test_non_float_input(dtype):
    with pytest.raises(type_check.InvalidType):
        F.relu(numpy.ones((2,), dtype))


def test_two_inputs():
    x = numpy.ones((2,), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        relu.ReLU().apply((x, x))
