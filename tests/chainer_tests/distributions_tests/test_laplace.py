import numpy

from chainer import distributions
from chainer import gradient_check
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestLaplace(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Laplace
        self.scipy_dist = stats.laplace
        self.test_targets = {
            'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
            'log_prob', 'mean', 'prob', 'sample', 'stddev', 'support',
            'variance'}
        loc = numpy.asarray(numpy.random.uniform(-1, 1, self.shape),
                            numpy.float32)
        scale = numpy.asarray(numpy.random.uniform(0.5, 2, self.shape),
                              numpy.float32)
        self.params = {'loc': loc, 'scale': scale}
        self.scipy_params = {'loc': loc, 'scale': scale}

    def sample_for_test(self):
        return numpy.random.normal(
            size=self.sample_shape + self.shape).astype(numpy.float32)

    def test_mode(self):
        testing.assert_allclose(self.cpu_dist.mode.array,
                                self.scipy_params['loc'])


def _check_node(function, x):
    rng = numpy.random.RandomState(0)
    gy = rng.normal(size=x.shape)
    ggx = rng.normal(size=x.shape)
    # Float64 inputs: a small step keeps the error of the finite
    # differences (the inverse cdf curves steeply near 1) far below the
    # tolerance whatever direction the check draws.
    gradient_check.check_backward(function, x, gy, eps=1e-5, atol=1e-4,
                                  rtol=1e-4)
    gradient_check.check_double_backward(
        function, x, gy, ggx, eps=1e-5, atol=1e-3, rtol=1e-3)


def test_cdf_node_gradients():
    x = numpy.array([-2., -0.5, 0.3, 1.7])
    _check_node(distributions.laplace._laplace_cdf, x)


def test_icdf_node_gradients():
    x = numpy.array([0.1, 0.4, 0.6, 0.95])
    _check_node(distributions.laplace._laplace_icdf, x)


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['laplace']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.Laplace(h.pos(r, -1, 1), h.pos(r)))
