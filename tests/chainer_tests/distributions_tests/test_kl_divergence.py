"""Each registered KL divergence against a Monte Carlo estimate."""

import warnings

import numpy
import pytest

import chainer
from chainer import distributions as D
from chainer import testing

SHAPE = (3,)


def _pos(rng, low=0.5, high=2., shape=SHAPE):
    return rng.uniform(low, high, shape).astype(numpy.float32)


def _simplex(rng):
    p = _pos(rng, 0.1, 1., SHAPE + (3,))
    return p / p.sum(axis=-1, keepdims=True)


def _tril(rng):
    a = rng.normal(size=SHAPE + (3, 3))
    return numpy.linalg.cholesky(
        a @ numpy.swapaxes(a, -1, -2) + numpy.eye(3)).astype(numpy.float32)


MAKERS = {
    'bernoulli': lambda r: D.Bernoulli(_pos(r, 0.1, 0.9)),
    'beta': lambda r: D.Beta(_pos(r, 1, 5), _pos(r, 1, 5)),
    'categorical': lambda r: D.Categorical(_simplex(r)),
    'dirichlet': lambda r: D.Dirichlet(_pos(r, 1, 5, SHAPE + (3,))),
    'exponential': lambda r: D.Exponential(_pos(r)),
    'gamma': lambda r: D.Gamma(_pos(r, 1, 5), _pos(r)),
    'geometric': lambda r: D.Geometric(_pos(r, 0.2, 0.8)),
    'gumbel': lambda r: D.Gumbel(_pos(r, -1, 1), _pos(r)),
    'laplace': lambda r: D.Laplace(_pos(r, -1, 1), _pos(r)),
    'log_normal': lambda r: D.LogNormal(_pos(r, -1, 1), _pos(r, 0.3, 1)),
    'multivariate_normal': lambda r: D.MultivariateNormal(
        _pos(r, -1, 1, SHAPE + (3,)), scale_tril=_tril(r)),
    'normal': lambda r: D.Normal(_pos(r, -1, 1), log_scale=_pos(r, -1, 1)),
    'one_hot_categorical': lambda r: D.OneHotCategorical(_simplex(r)),
    'pareto': lambda r: D.Pareto(_pos(r, 0.5, 1), _pos(r, 2, 4)),
    'poisson': lambda r: D.Poisson(_pos(r, 2, 6)),
    'uniform': lambda r: D.Uniform(low=_pos(r, -2, -1), high=_pos(r, 1, 2)),
}


@pytest.mark.parametrize('name', sorted(MAKERS))
def test_against_monte_carlo(name):
    rng = numpy.random.RandomState(0)
    p = MAKERS[name](rng)
    q = MAKERS[name](rng)
    if name == 'uniform':
        # Make the support of p lie inside that of q, for a finite KL.
        q = D.Uniform(low=p.low.array - 0.5, high=p.high.array + 0.5)
    kl = chainer.kl_divergence(p, q).array
    numpy.random.seed(0)
    x = p.sample(100000)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        mc = numpy.mean(p.log_prob(x).array - q.log_prob(x).array, axis=0)
    testing.assert_allclose(kl, mc, atol=2e-2, rtol=2e-2)


def test_uniform_outside_support_is_infinite():
    p = D.Uniform(low=numpy.zeros(2, numpy.float32),
                  high=numpy.array([1., 3.], numpy.float32))
    q = D.Uniform(low=numpy.zeros(2, numpy.float32),
                  high=numpy.full(2, 2., numpy.float32))
    kl = chainer.kl_divergence(p, q).array
    testing.assert_allclose(kl[0], numpy.log(2.))
    assert kl[1] == numpy.inf
