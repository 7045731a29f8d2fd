import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.noise import gaussian
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (), (0, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestGaussianWithEps(testing.FunctionTestCase):

    def setUp(self):
        self.eps = numpy.asarray(
            numpy.random.standard_normal(self.shape), self.dtype)
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        mean = numpy.random.uniform(-1, 1, self.shape)
        ln_var = numpy.random.uniform(-1, 1, self.shape)
        return (numpy.asarray(mean, self.dtype),
                numpy.asarray(ln_var, self.dtype))

    def forward(self, inputs, device):
        mean, ln_var = inputs
        return F.gaussian(mean, ln_var, eps=device.send(self.eps)),

    def forward_expected(self, inputs):
        mean, ln_var = inputs
        y = mean + numpy.exp(ln_var.astype(numpy.float64) / 2) * self.eps
        return numpy.asarray(y, mean.dtype),


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_draws_eps_like_numpy(dtype):
    rng = numpy.random.RandomState(0)
    mean = rng.uniform(-1, 1, (3, 4)).astype(dtype)
    ln_var = rng.uniform(-1, 1, (3, 4)).astype(dtype)
    numpy.random.seed(2)
    y, eps = F.gaussian(chainer.Variable(mean), ln_var, return_eps=True)
    numpy.random.seed(2)
    expected_eps = numpy.random.standard_normal((3, 4)).astype(dtype)
    assert eps.dtype == dtype
    numpy.testing.assert_array_equal(eps, expected_eps)
    numpy.testing.assert_array_equal(
        y.array, mean + numpy.exp(ln_var * dtype(0.5)) * expected_eps)
    assert type(y.creator) is gaussian.Gaussian
    y2 = F.gaussian(mean, ln_var, eps=eps)
    numpy.testing.assert_array_equal(y2.array, y.array)


@pytest.mark.parametrize('ln_var', [
    numpy.ones((3, 2), numpy.float32), numpy.ones((2, 3), numpy.float64)],
    ids=['shape', 'dtype'])
def test_mismatched_inputs(ln_var):
    with pytest.raises(type_check.InvalidType):
        F.gaussian(numpy.ones((2, 3), numpy.float32), ln_var)


def test_unknown_argument():
    x = numpy.ones(2, numpy.float32)
    with pytest.raises(TypeError):
        F.gaussian(x, x, foo=1)
