import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.activation import rrelu
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'train': [True, False],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestRReLU(testing.FunctionTestCase):

    l = 0.1
    u = 0.3

    def setUp(self):
        # A fixed r (used in training mode) makes the function
        # deterministic for the numerical gradients.
        self.r = numpy.random.uniform(
            self.l, self.u, self.shape).astype(self.dtype)
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        x[numpy.abs(x) < 0.1] = 0.5
        return numpy.asarray(x, self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        with chainer.using_config('train', self.train):
            return F.rrelu(x, self.l, self.u, r=device.send(self.r)),

    def forward_expected(self, inputs):
        x, = inputs
        r = self.r if self.train else (self.l + self.u) / 2
        return numpy.asarray(numpy.where(x >= 0, x, x * r), x.dtype),


def test_draws_r_like_numpy():
    x = numpy.random.RandomState(0).uniform(-1, 1, (4, 5)).astype(
        numpy.float32)
    numpy.random.seed(3)
    y, r = F.rrelu(x, return_r=True)
    numpy.random.seed(3)
    expected_r = numpy.random.uniform(1. / 8, 1. / 3, x.shape).astype(
        numpy.float32)
    numpy.testing.assert_array_equal(r, expected_r)
    numpy.testing.assert_array_equal(
        y.array, numpy.where(x >= 0, x, x * expected_r))
    y2 = F.rrelu(x, r=r)
    numpy.testing.assert_array_equal(y2.array, y.array)


def test_test_mode_uses_mean_slope():
    x = numpy.array([-2., 3.], numpy.float32)
    with chainer.using_config('train', False):
        y, r = F.rrelu(x, 0.2, 0.4, return_r=True)
    numpy.testing.assert_allclose(r, [0.3, 0.3])
    numpy.testing.assert_allclose(y.array, [-0.6, 3.])


def test_node_class():
    y = F.rrelu(chainer.Variable(numpy.ones(2, numpy.float32)))
    assert type(y.creator) is rrelu.RReLU


@pytest.mark.parametrize('l, u', [(-0.1, 0.3), (0.1, 1.0), (0.3, 0.2)],
                         ids=str)
def test_bad_bounds(l, u):
    with pytest.raises(ValueError):
        F.rrelu(numpy.ones(2, numpy.float32), l, u)


def test_bad_r():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.rrelu(x, r=numpy.ones((3, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.rrelu(x, r=numpy.ones((2, 3), numpy.float64))


def test_train_argument_refused():
    with pytest.raises(ValueError, match='train argument is not supported'):
        F.rrelu(numpy.ones(2, numpy.float32), train=True)


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.rrelu(numpy.ones((2,), numpy.int32))
