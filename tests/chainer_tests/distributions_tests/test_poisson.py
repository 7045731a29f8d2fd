import numpy

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestPoisson(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Poisson
        self.scipy_dist = stats.poisson
        self.test_targets = {
            'batch_shape', 'event_shape', 'log_prob', 'mean', 'sample',
            'support', 'variance'}
        lam = numpy.asarray(numpy.random.uniform(2, 8, self.shape),
                            numpy.float32)
        self.params = {'lam': lam}
        self.scipy_params = {'mu': lam}
        self.support = 'non negative integer'
        self.continuous = False

    def sample_for_test(self):
        return numpy.random.randint(
            0, 10, self.sample_shape + self.shape).astype(numpy.int32)


def test_sample_is_float32():
    lam = numpy.array([1., 4.], numpy.float64)
    numpy.random.seed(0)
    y = distributions.Poisson(lam).sample(3)
    numpy.random.seed(0)
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(
        y.array, numpy.random.poisson(lam, size=(3, 2)))


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['poisson']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.Poisson(h.pos(r, 2, 6)))
