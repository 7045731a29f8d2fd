import numpy

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestOneHotCategorical(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.OneHotCategorical
        self.scipy_dist = stats.multinomial
        self.event_shape = (3,)
        self.test_targets = {
            'batch_shape', 'event_shape', 'log_prob', 'mean', 'sample',
            'variance'}
        p = numpy.random.uniform(0.1, 1, self.shape + (3,))
        p = (p / p.sum(axis=-1, keepdims=True)).astype(numpy.float32)
        self.params = {'p': p}
        self.scipy_params = {'n': numpy.ones(self.shape), 'p': p}
        self.continuous = False

    def sample_for_test(self):
        index = numpy.random.randint(0, 3, self.sample_shape + self.shape)
        return numpy.eye(3, dtype=numpy.float32)[index]

    def check_variance(self, is_gpu):
        p = self.scipy_params['p']
        testing.assert_allclose(self.cpu_dist.variance.array, p * (1 - p))


def test_sample_accepts_float32_rounding():
    # Each row sums to 1 in float32 but not to NumPy's float64 tolerance.
    p = numpy.full((2, 7), 1 / 7, numpy.float32)
    numpy.random.seed(0)
    y = distributions.OneHotCategorical(p).sample(3).array
    assert y.shape == (3, 2, 7)
    numpy.testing.assert_array_equal(y.sum(axis=-1), 1)


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['one_hot_categorical']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.OneHotCategorical(h.simplex(r)))
