import numpy

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestBeta(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Beta
        self.scipy_dist = stats.beta
        self.test_targets = {
            'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
            'sample', 'support', 'variance'}
        a = numpy.asarray(numpy.random.uniform(0.5, 5, self.shape),
                          numpy.float32)
        b = numpy.asarray(numpy.random.uniform(0.5, 5, self.shape),
                          numpy.float32)
        self.params = {'a': a, 'b': b}
        self.scipy_params = {'a': a, 'b': b}
        self.support = '[0, 1]'

    def sample_for_test(self):
        return numpy.random.uniform(
            0.05, 0.95, self.sample_shape + self.shape).astype(numpy.float32)


def test_log_prob_outside_support():
    dist = distributions.Beta(numpy.full(3, 2., numpy.float32),
                              numpy.full(3, 3., numpy.float32))
    x = numpy.array([-0.5, 0.5, 1.5], numpy.float32)
    with numpy.errstate(invalid='ignore'):
        y = dist.log_prob(x).array
    assert y[0] == y[2] == -numpy.inf
    assert numpy.isfinite(y[1])


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['beta']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.Beta(h.pos(r, 1, 5), h.pos(r, 1, 5)))
