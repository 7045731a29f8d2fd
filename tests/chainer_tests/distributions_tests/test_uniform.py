import numpy
import pytest

import chainer
from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
    'use_loc_scale': [True, False],
}))
@testing.fix_random()
class TestUniform(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Uniform
        self.scipy_dist = stats.uniform
        self.test_targets = {
            'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
            'log_prob', 'mean', 'sample', 'stddev', 'support', 'variance'}
        low = numpy.asarray(numpy.random.uniform(-2, 0, self.shape),
                            numpy.float32)
        scale = numpy.asarray(numpy.random.uniform(1, 3, self.shape),
                              numpy.float32)
        if self.use_loc_scale:
            self.params = {'loc': low, 'scale': scale}
        else:
            self.params = {'low': low, 'high': numpy.asarray(low + scale)}
        self.scipy_params = {'loc': low, 'scale': scale}
        self.support = '[low, high]'

    def sample_for_test(self):
        return numpy.random.uniform(
            -3, 3, self.sample_shape + self.shape).astype(numpy.float32)

    def test_params(self):
        assert sorted(self.cpu_dist.params) == sorted(self.params)


@pytest.mark.parametrize('kwargs', [
    {}, {'low': 0.}, {'loc': 0.}, {'low': 0., 'high': 1., 'loc': 0.,
                                   'scale': 1.}])
def test_invalid_parameterisation(kwargs):
    kwargs = {k: numpy.array(v, numpy.float32) for k, v in kwargs.items()}
    with pytest.raises(ValueError):
        distributions.Uniform(**kwargs)


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['uniform_low_high', 'uniform_loc_scale']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.Uniform(
            low=h.pos(r, -2, -1), high=h.pos(r, 1, 2)),
        # Make the support of p lie inside that of q, for a finite KL.
        lambda p: distributions.Uniform(
            low=p.low.array - 0.5, high=p.high.array + 0.5))


def test_uniform_outside_support_is_infinite():
    p = distributions.Uniform(low=numpy.zeros(2, numpy.float32),
                  high=numpy.array([1., 3.], numpy.float32))
    q = distributions.Uniform(low=numpy.zeros(2, numpy.float32),
                  high=numpy.full(2, 2., numpy.float32))
    kl = chainer.kl_divergence(p, q).array
    testing.assert_allclose(kl[0], numpy.log(2.))
    assert kl[1] == numpy.inf
