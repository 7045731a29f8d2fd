import numpy

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestChisquare(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Chisquare
        self.scipy_dist = stats.chi2
        self.test_targets = {
            'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
            'sample', 'support', 'variance'}
        k = numpy.asarray(numpy.random.uniform(1, 5, self.shape),
                          numpy.float32)
        self.params = {'k': k}
        self.scipy_params = {'df': k}
        self.support = 'positive'

    def sample_for_test(self):
        return numpy.random.uniform(
            0.1, 5, self.sample_shape + self.shape).astype(numpy.float32)


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['chisquare']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)

