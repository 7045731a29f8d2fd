import numpy

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestDirichlet(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Dirichlet
        self.scipy_dist = stats.dirichlet
        self.event_shape = (3,)
        self.test_targets = {
            'batch_shape', 'entropy', 'event_shape', 'mean', 'sample',
            'support', 'variance'}
        alpha = numpy.random.uniform(
            0.5, 5, self.shape + (3,)).astype(numpy.float32)
        self.params = {'alpha': alpha}
        self.scipy_params = {'alpha': alpha}
        self.support = '[0, 1]'

    def test_log_prob(self):
        x = numpy.random.uniform(
            0.1, 1, self.sample_shape + self.shape + (3,))
        x = (x / x.sum(axis=-1, keepdims=True)).astype(numpy.float32)
        y = self.cpu_dist.log_prob(x).array
        alpha = self.scipy_params['alpha']
        from scipy import stats
        expected = numpy.empty(self.sample_shape + self.shape)
        for index in numpy.ndindex(expected.shape):
            batch = index[len(self.sample_shape):]
            point = x[index].astype(numpy.float64)
            expected[index] = stats.dirichlet.logpdf(
                point / point.sum(), alpha[batch])
        testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-5)


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['dirichlet']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.Dirichlet(
            h.pos(r, 1, 5, h.KL_SHAPE + (3,))))
