import numpy

import chainer
from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestGamma(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Gamma
        self.scipy_dist = stats.gamma
        self.test_targets = {
            'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
            'sample', 'support', 'variance'}
        k = numpy.asarray(numpy.random.uniform(1, 5, self.shape),
                          numpy.float32)
        theta = numpy.asarray(numpy.random.uniform(0.5, 2, self.shape),
                              numpy.float32)
        self.params = {'k': k, 'theta': theta}
        self.scipy_params = {'a': k, 'scale': theta}
        self.support = 'positive'

    def sample_for_test(self):
        return numpy.random.uniform(
            0.1, 5, self.sample_shape + self.shape).astype(numpy.float32)


def test_sample_is_differentiable_in_theta():
    theta = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    numpy.random.seed(0)
    y = distributions.Gamma(numpy.array([2., 3.], numpy.float32),
                            theta).sample(5)
    chainer.functions.sum(y).backward()
    numpy.random.seed(0)
    eps = numpy.random.gamma(numpy.array([2., 3.]), size=(5, 2))
    testing.assert_allclose(theta.grad, eps.sum(axis=0), rtol=1e-5)


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['gamma']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.Gamma(h.pos(r, 1, 5), h.pos(r)))
