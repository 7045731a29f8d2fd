import numpy

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestPareto(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Pareto
        self.scipy_dist = stats.pareto
        self.test_targets = {
            'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
            'support', 'variance'}
        scale = numpy.asarray(numpy.random.uniform(0.5, 1, self.shape),
                              numpy.float32)
        alpha = numpy.asarray(numpy.random.uniform(3, 5, self.shape),
                              numpy.float32)
        self.params = {'scale': scale, 'alpha': alpha}
        self.scipy_params = {'b': alpha, 'scale': scale}
        self.support = '[scale, inf]'

    def sample_for_test(self):
        return numpy.random.uniform(
            1, 5, self.sample_shape + self.shape).astype(numpy.float32)


def test_infinite_moments():
    dist = distributions.Pareto(numpy.ones(3, numpy.float32),
                                numpy.array([0.5, 1.5, 3.], numpy.float32))
    mean = dist.mean.array
    variance = dist.variance.array
    assert mean[0] == numpy.inf and numpy.isfinite(mean[1:]).all()
    assert (variance[:2] == numpy.inf).all() and numpy.isfinite(variance[2])


def test_log_prob_below_scale():
    dist = distributions.Pareto(numpy.full(2, 2., numpy.float32),
                                numpy.full(2, 3., numpy.float32))
    y = dist.log_prob(numpy.array([1., 3.], numpy.float32)).array
    assert y[0] == -numpy.inf and numpy.isfinite(y[1])


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['pareto']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.Pareto(h.pos(r, 0.5, 1), h.pos(r, 2, 4)))
