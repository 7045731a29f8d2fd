import numpy

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestExponential(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Exponential
        self.scipy_dist = stats.expon
        self.test_targets = {
            'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
            'log_prob', 'mean', 'sample', 'support', 'variance'}
        lam = numpy.asarray(numpy.random.uniform(0.5, 2, self.shape),
                            numpy.float32)
        self.params = {'lam': lam}
        self.scipy_params = {'scale': 1 / lam}
        self.support = 'positive'

    def sample_for_test(self):
        return numpy.random.uniform(
            0.1, 5, self.sample_shape + self.shape).astype(numpy.float32)


def test_log_prob_of_negative_values():
    y = distributions.Exponential(numpy.ones(2, numpy.float32)).log_prob(
        numpy.array([-1., 1.], numpy.float32)).array
    assert y[0] == -numpy.inf
    testing.assert_allclose(y[1], -1.)


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['exponential']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.Exponential(h.pos(r)))
