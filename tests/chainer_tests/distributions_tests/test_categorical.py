import numpy
import pytest

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
    'logit_option': [True, False],
}))
@testing.fix_random()
class TestCategorical(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Categorical
        self.scipy_dist = stats.multinomial
        self.test_targets = {
            'batch_shape', 'event_shape', 'entropy', 'log_prob'}
        logit = numpy.random.normal(
            size=self.shape + (3,)).astype(numpy.float32)
        p = numpy.exp(logit)
        p /= p.sum(axis=-1, keepdims=True)
        self.params = {'logit': logit} if self.logit_option else {'p': p}
        self.scipy_params = {'n': numpy.ones(self.shape), 'p': p}
        self.continuous = False

    def sample_for_test(self):
        return numpy.random.randint(
            0, 3, self.sample_shape + self.shape).astype(numpy.int32)

    def check_log_prob(self, is_gpu):
        smp = self.sample_for_test()
        y = self._dist(is_gpu).log_prob(smp).array
        one_hot = numpy.eye(3)[smp]
        expected = numpy.log(
            (self.scipy_params['p'] * one_hot).sum(axis=-1))
        testing.assert_allclose(y, expected, rtol=1e-5)


def test_p_or_logit():
    with pytest.raises(ValueError):
        distributions.Categorical()
    p = numpy.full(3, 1 / 3, numpy.float32)
    with pytest.raises(ValueError):
        distributions.Categorical(p, logit=p)
    with pytest.raises(TypeError):
        distributions.Categorical(p, scale=p)


def test_sample_frequencies():
    p = numpy.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], numpy.float32)
    numpy.random.seed(0)
    y = distributions.Categorical(p).sample(20000).array
    assert y.shape == (20000, 2)
    freq = numpy.stack([(y == i).mean(axis=0) for i in range(3)], axis=-1)
    testing.assert_allclose(freq, p, atol=2e-2)


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['categorical_p', 'categorical_logit']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.Categorical(h.simplex(r)))
