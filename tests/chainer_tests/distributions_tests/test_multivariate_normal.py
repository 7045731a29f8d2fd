import copy
import sys

import numpy
import pytest

import chainer
from chainer import distributions
from chainer import gradient_check
from chainer import testing
from chainer.utils import type_check


def _scale_tril(shape, d, rng=numpy.random):
    a = rng.normal(size=shape + (d, d))
    cov = numpy.matmul(a, numpy.swapaxes(a, -1, -2)) + numpy.eye(d)
    return cov, numpy.linalg.cholesky(cov).astype(numpy.float32)


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestMultivariateNormal(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.MultivariateNormal
        self.scipy_dist = stats.multivariate_normal
        self.event_shape = (3,)
        self.test_targets = {
            'batch_shape', 'entropy', 'event_shape', 'log_prob', 'sample',
            'support'}
        loc = numpy.random.uniform(
            -1, 1, self.shape + (3,)).astype(numpy.float32)
        cov, scale_tril = _scale_tril(self.shape, 3)
        self.params = {'loc': loc, 'scale_tril': scale_tril}
        self.scipy_params = {'mean': loc, 'cov': cov}

    def sample_for_test(self):
        return numpy.random.normal(
            size=self.sample_shape + self.shape + (3,)).astype(numpy.float32)

    def test_covariance(self):
        testing.assert_allclose(self.cpu_dist.covariance.array,
                                self.scipy_params['cov'], rtol=1e-4)

    def test_mean(self):
        assert self.cpu_dist.mean.array is self.scipy_params['mean']

    def test_scale_tril_required(self):
        with pytest.raises(ValueError):
            self.dist(self.params['loc'])


@pytest.mark.parametrize('d', [3, 1, 0])
@pytest.mark.parametrize('lower', [True, False])
@pytest.mark.parametrize('batch', [(), (2,)])
def test_triangular_inv(d, lower, batch):
    rng = numpy.random.RandomState(d)
    x = rng.uniform(0.5, 2, batch + (d, d))
    x = numpy.tril(x) if lower else numpy.triu(x)
    y = distributions.multivariate_normal._triangular_inv(x, lower=lower)
    testing.assert_allclose(y.array, numpy.linalg.inv(x), atol=1e-7)
    if d == 0:
        return
    gy = rng.normal(size=x.shape)
    ggx = rng.normal(size=x.shape)
    mask = (numpy.tril if lower else numpy.triu)(numpy.ones((d, d)))

    def f(x):
        # Perturbations off the triangle are not in the domain.
        return distributions.multivariate_normal._triangular_inv(
            x * mask, lower=lower)

    gradient_check.check_backward(f, x, gy, atol=1e-4, rtol=1e-4)
    gradient_check.check_double_backward(
        f, x, gy, ggx, atol=1e-3, rtol=1e-3)


def test_triangular_inv_type_check():
    with pytest.raises(type_check.InvalidType):
        distributions.multivariate_normal._triangular_inv(
            numpy.ones((2, 3), numpy.float32))
    with pytest.raises(type_check.InvalidType):
        distributions.multivariate_normal._triangular_inv(
            numpy.ones((2, 2), numpy.int32))


def test_sample_is_reparameterised():
    rng = numpy.random.RandomState(0)
    loc = rng.normal(size=(2, 3)).astype(numpy.float32)
    _, scale_tril = _scale_tril((2,), 3, rng)
    loc_var = chainer.Variable(loc)
    tril_var = chainer.Variable(scale_tril)
    numpy.random.seed(5)
    y = distributions.MultivariateNormal(
        loc_var, scale_tril=tril_var).sample(4)
    numpy.random.seed(5)
    eps = numpy.random.standard_normal((4, 2, 3, 1)).astype(numpy.float32)
    testing.assert_allclose(
        y.array, loc + numpy.matmul(scale_tril, eps)[..., 0], rtol=1e-5)
    chainer.functions.sum(y).backward()
    testing.assert_allclose(loc_var.grad, numpy.full((2, 3), 4.))
    testing.assert_allclose(
        tril_var.grad,
        numpy.broadcast_to(eps.sum(axis=0)[..., 0][:, None, :], (2, 3, 3)),
        rtol=1e-5)


def test_triangular_inv_needs_scipy_on_cpu(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.linalg', None)
    with pytest.raises(ImportError, match='SciPy'):
        distributions.multivariate_normal._triangular_inv(
            numpy.eye(3, dtype=numpy.float32))


# Configurations of fixtures/make_fixture.py checked against the numbers
# of Chainer 7.8.1 (see conftest.py).
CHAINER_7_8_CONFIGS = ['multivariate_normal']


def test_matches_chainer_7_8(distribution_check, config, member):
    distribution_check.check_member(config, member)


def test_grad_of_log_prob_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_log_prob(config)


def test_grad_of_sample_matches_chainer_7_8(distribution_check, config):
    distribution_check.check_grad_sample(config)


def test_kl_divergence_against_monte_carlo(distribution_check):
    distribution_check.check_kl_against_monte_carlo(
        lambda h, r: distributions.MultivariateNormal(
            h.pos(r, -1, 1, h.KL_SHAPE + (3,)), scale_tril=h.tril(r)))


def test_copy_of_multivariate_normal():
    dist = distributions.MultivariateNormal(
        numpy.zeros((2, 3), numpy.float32),
        scale_tril=numpy.broadcast_to(numpy.eye(3, dtype=numpy.float32),
                                      (2, 3, 3)))
    other = copy.copy(dist)
    assert other is not dist
    assert other.loc is dist.loc
    assert other.batch_shape == (2,)
