import numpy
import pytest

import chainer
from chainer import distributions
from chainer import gradient_check
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
    'log_scale_option': [True, False],
}))
@testing.fix_random()
class TestNormal(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Normal
        self.scipy_dist = stats.norm
        self.test_targets = {
            'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
            'log_cdf', 'log_prob', 'log_survival', 'mean', 'prob', 'sample',
            'stddev', 'support', 'survival', 'variance'}
        loc = numpy.asarray(numpy.random.uniform(-1, 1, self.shape),
                            numpy.float32)
        log_scale = numpy.asarray(numpy.random.uniform(-1, 1, self.shape),
                                  numpy.float32)
        scale = numpy.asarray(numpy.exp(log_scale))
        if self.log_scale_option:
            self.params = {'loc': loc, 'log_scale': log_scale}
        else:
            self.params = {'loc': loc, 'scale': scale}
        self.scipy_params = {'loc': loc, 'scale': scale}

    def sample_for_test(self):
        return numpy.random.normal(
            size=self.sample_shape + self.shape).astype(numpy.float32)


def test_scale_or_log_scale():
    loc = numpy.zeros(2, numpy.float32)
    with pytest.raises(ValueError):
        distributions.Normal(loc)
    with pytest.raises(ValueError):
        distributions.Normal(loc, loc + 1, log_scale=loc)
    with pytest.raises(TypeError):
        distributions.Normal(loc, loc + 1, scale_tril=loc)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_sample_dtype_and_seed(dtype):
    loc = numpy.array([0., 10.], dtype)
    scale = numpy.array([1., 2.], dtype)
    numpy.random.seed(3)
    y = distributions.Normal(loc, scale).sample((5,))
    numpy.random.seed(3)
    eps = numpy.random.standard_normal((5, 2)).astype(dtype)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, loc + scale * eps)


def test_sample_is_reparameterised():
    numpy.random.seed(0)
    eps = numpy.random.standard_normal((4, 3)).astype(numpy.float32)
    loc = numpy.array([0., 1., 2.], numpy.float32)
    log_scale = numpy.array([0., -1., 0.5], numpy.float32)
    gy = numpy.ones((4, 3), numpy.float32)

    def sample(loc, log_scale):
        numpy.random.seed(0)
        return distributions.Normal(loc, log_scale=log_scale).sample(4)

    gradient_check.check_backward(
        sample, (loc, log_scale), gy, atol=1e-3, rtol=1e-3)
    y = sample(chainer.Variable(loc), chainer.Variable(log_scale))
    testing.assert_allclose(y.array, loc + numpy.exp(log_scale) * eps)


def test_log_prob_gradient():
    loc = numpy.array([0.5, -1.], numpy.float64)
    scale = numpy.array([1.5, 0.7], numpy.float64)
    x = numpy.array([[0.1, 0.2], [1., -2.]], numpy.float64)
    gy = numpy.ones((2, 2))
    gradient_check.check_backward(
        lambda loc, scale: distributions.Normal(loc, scale).log_prob(x),
        (loc, scale), gy)


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['normal', 'normal_float64', 'normal_log_scale']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.Normal(
            h.pos(r, -1, 1), log_scale=h.pos(r, -1, 1)))
