import numpy
import pytest

from chainer import distributions
from chainer import gradient_check
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
    'binary_check': [True, False],
}))
@testing.fix_random()
class TestBernoulli(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Bernoulli
        self.scipy_dist = stats.bernoulli
        self.options = {'binary_check': self.binary_check}
        self.test_targets = {
            'batch_shape', 'entropy', 'log_prob', 'mean', 'prob', 'sample',
            'stddev', 'support', 'variance'}
        p = numpy.asarray(numpy.random.uniform(0.1, 0.9, self.shape),
                          numpy.float32)
        self.params = {'p': p}
        self.scipy_params = {'p': p}
        self.support = '{0, 1}'
        self.continuous = False

    def sample_for_test(self):
        return numpy.random.randint(
            2, size=self.sample_shape + self.shape).astype(numpy.float32)

    def test_non_binary_values(self):
        x = numpy.full(self.shape, 0.5, numpy.float32)
        log_prob = self.cpu_dist.log_prob(x).array
        prob = self.cpu_dist.prob(x).array
        if self.binary_check:
            assert (log_prob == -numpy.inf).all()
            assert (prob == 0).all()
        else:
            assert numpy.isfinite(log_prob).all()
            assert (prob > 0).all()


def test_p_or_logit():
    with pytest.raises(ValueError):
        distributions.Bernoulli()
    p = numpy.full(2, 0.5, numpy.float32)
    with pytest.raises(ValueError):
        distributions.Bernoulli(p=p, logit=p)


def test_logit_parameterisation():
    logit = numpy.array([-2., 0., 3.], numpy.float32)
    dist = distributions.Bernoulli(logit=logit)
    testing.assert_allclose(dist.p.array, 1 / (1 + numpy.exp(-logit)))
    assert dist.params['logit'].array is logit


@pytest.mark.parametrize('logit', [numpy.inf, -numpy.inf])
def test_infinite_logit(logit):
    logit = numpy.full(2, logit, numpy.float32)
    x = numpy.array([0., 1.], numpy.float32)
    with numpy.errstate(invalid='ignore'):
        y = distributions.Bernoulli(logit=logit).log_prob(x).array
    expected = [-numpy.inf, 0.] if logit[0] > 0 else [0., -numpy.inf]
    numpy.testing.assert_array_equal(y, expected)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_log_prob_gradients(dtype):
    rng = numpy.random.RandomState(0)
    logit = rng.normal(size=(2, 3)).astype(dtype)
    x = rng.randint(0, 2, (2, 3)).astype(dtype)
    gy = rng.normal(size=(2, 3)).astype(dtype)
    ggx = rng.normal(size=(2, 3)).astype(dtype)

    def log_prob(logit):
        return distributions.bernoulli._bernoulli_log_prob(logit, x)

    gradient_check.check_backward(log_prob, logit, gy, dtype=numpy.float64,
                                  atol=1e-3, rtol=1e-3)
    gradient_check.check_double_backward(
        log_prob, logit, gy, ggx, dtype=numpy.float64, atol=1e-3, rtol=1e-3)


def test_log_prob_broadcasts_logit():
    logit = numpy.array(0.3, numpy.float64)
    x = numpy.array([0., 1., 1.])
    gradient_check.check_backward(
        lambda logit: distributions.bernoulli._bernoulli_log_prob(logit, x),
        logit, numpy.ones(3))


def test_sample_integers():
    p = numpy.array([0.2, 0.7], numpy.float32)
    numpy.random.seed(1)
    y = distributions.Bernoulli(p).sample(6)
    numpy.random.seed(1)
    numpy.testing.assert_array_equal(
        y.array, numpy.random.binomial(1, p, size=(6, 2)))


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['bernoulli_p', 'bernoulli_logit_check']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.Bernoulli(h.pos(r, 0.1, 0.9)))
