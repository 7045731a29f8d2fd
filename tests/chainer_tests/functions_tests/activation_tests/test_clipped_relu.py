import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.activation import clipped_relu
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'z': [0.75, 6.0],
}))
@testing.fix_random()
@testing.inject_backend_tests(
    None,
    [{}, {'use_cuda': True, 'use_cudnn': 'never'},
     {'use_cuda': True, 'use_cudnn': 'always'}])
class TestClippedReLU(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.asarray(numpy.random.uniform(-1.5, 1.5, self.shape) * self.z)
        # Away from the kinks at 0 and z.
        for kink in (0, self.z):
            x[numpy.abs(x - kink) < 0.1] = kink + 0.2
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        if self.z == 6.0:
            return F.relu6(x),
        return F.clipped_relu(x, self.z),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(numpy.clip(x, 0, self.z), x.dtype),


def test_node_class():
    x = chainer.Variable(numpy.array([-1., 2., 30.], numpy.float32))
    for y in (F.clipped_relu(x), F.relu6(x)):
        assert type(y.creator) is clipped_relu.ClippedReLU
    numpy.testing.assert_array_equal(F.clipped_relu(x).array, [0, 2, 20])
    numpy.testing.assert_array_equal(F.relu6(x).array, [0, 2, 6])


def test_gradient_is_zero_outside():
    x = chainer.Variable(numpy.array([-1., 2., 30.], numpy.float32))
    y = F.clipped_relu(x, 10.0)
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [0., 1., 0.])


@pytest.mark.parametrize('z', [1, numpy.float32(1.0), None], ids=str)
def test_cap_must_be_float(z):
    with pytest.raises(TypeError, match='z must be float value'):
        F.clipped_relu(numpy.ones(2, numpy.float32), z)


def test_cap_must_be_positive():
    with pytest.raises(AssertionError):
        F.clipped_relu(numpy.ones(2, numpy.float32), -1.0)


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.clipped_relu(numpy.ones((2,), numpy.int32))
