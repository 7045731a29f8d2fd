import warnings

import numpy
import pytest

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestCauchy(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Cauchy
        self.scipy_dist = stats.cauchy
        self.test_targets = {
            'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
            'log_prob', 'support'}
        loc = numpy.asarray(numpy.random.uniform(-1, 1, self.shape),
                            numpy.float32)
        scale = numpy.asarray(numpy.random.uniform(0.5, 2, self.shape),
                              numpy.float32)
        self.params = {'loc': loc, 'scale': scale}
        self.scipy_params = {'loc': loc, 'scale': scale}

    def sample_for_test(self):
        return numpy.random.normal(
            size=self.sample_shape + self.shape).astype(numpy.float32)

    def test_median_of_samples(self):
        numpy.random.seed(0)
        y = self.cpu_dist.sample(20000).array
        testing.assert_allclose(
            numpy.median(y, axis=0), self.scipy_params['loc'], atol=5e-2)


@pytest.mark.parametrize('member', ['mean', 'variance'])
def test_undefined_moments(member):
    dist = distributions.Cauchy(numpy.zeros(2, numpy.float32),
                                numpy.ones(2, numpy.float32))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        y = getattr(dist, member)
    assert numpy.isnan(y.array).all()
    assert issubclass(w[0].category, RuntimeWarning)


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['cauchy']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)

