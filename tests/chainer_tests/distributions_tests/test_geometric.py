import numpy

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestGeometric(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Geometric
        self.scipy_dist = stats.geom
        self.test_targets = {
            'batch_shape', 'event_shape', 'log_prob', 'mean', 'sample',
            'support', 'variance'}
        p = numpy.asarray(numpy.random.uniform(0.3, 0.9, self.shape),
                          numpy.float32)
        self.params = {'p': p}
        self.scipy_params = {'p': p}
        self.support = 'positive integer'
        self.continuous = False

    def sample_for_test(self):
        return numpy.random.randint(
            1, 10, self.sample_shape + self.shape).astype(numpy.float32)


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['geometric']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.Geometric(h.pos(r, 0.2, 0.8)))
