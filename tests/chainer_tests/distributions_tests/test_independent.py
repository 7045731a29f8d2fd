import numpy
import pytest

import chainer
from chainer import distributions as D
from chainer import testing


def _normal(shape, seed=0):
    rng = numpy.random.RandomState(seed)
    return D.Normal(rng.normal(size=shape).astype(numpy.float32),
                    rng.uniform(0.5, 2, shape).astype(numpy.float32))


@pytest.mark.parametrize('shape,ndims,batch_shape,event_shape', [
    ((4, 5), None, (4,), (5,)),
    ((4, 5), 0, (4, 5), ()),
    ((4, 5), 2, (), (4, 5)),
    ((5,), None, (5,), ()),
    ((), None, (), ()),
])
def test_shapes(shape, ndims, batch_shape, event_shape):
    dist = D.Independent(_normal(shape), ndims)
    assert dist.batch_shape == batch_shape
    assert dist.event_shape == event_shape
    assert dist.sample((2,)).shape == (2,) + shape


def test_too_many_reinterpreted_axes():
    with pytest.raises(ValueError):
        D.Independent(_normal((4, 5)), 3)


@pytest.mark.parametrize('method,reduce', [
    ('log_prob', numpy.sum), ('log_cdf', numpy.sum),
    ('log_survival_function', numpy.sum), ('prob', numpy.prod),
    ('cdf', numpy.prod), ('survival_function', numpy.prod)])
def test_functions_reduce_over_event_axes(method, reduce):
    base = _normal((4, 5))
    x = numpy.random.RandomState(1).normal(size=(3, 4, 5)).astype(
        numpy.float32)
    y = getattr(D.Independent(base, 1), method)(x).array
    expected = reduce(getattr(base, method)(x).array, axis=-1)
    testing.assert_allclose(y, expected, rtol=1e-5)


def test_statistics_of_the_base():
    base = _normal((4, 5))
    dist = D.Independent(base, 1)
    assert dist.mean is base.mean
    assert dist.stddev is base.stddev
    assert dist.variance is base.variance
    assert dist.params == base.params
    assert dist.support == 'real'
    assert dist.xp is numpy
    testing.assert_allclose(dist.entropy.array,
                            base.entropy.array.sum(axis=-1))
    with pytest.raises(RuntimeError):
        dist.icdf(0.5)


def test_covariance_is_block_diagonal():
    rng = numpy.random.RandomState(0)
    a = rng.normal(size=(2, 3, 2, 2))
    scale_tril = numpy.linalg.cholesky(
        a @ numpy.swapaxes(a, -1, -2) + numpy.eye(2)).astype(numpy.float32)
    base = D.MultivariateNormal(numpy.zeros((2, 3, 2), numpy.float32),
                                scale_tril=scale_tril)
    cov = D.Independent(base, 1).covariance.array
    assert cov.shape == (2, 6, 6)
    base_cov = base.covariance.array
    for b in range(2):
        expected = numpy.zeros((6, 6), numpy.float32)
        for i in range(3):
            expected[2 * i:2 * i + 2, 2 * i:2 * i + 2] = base_cov[b, i]
        testing.assert_allclose(cov[b], expected)


def test_kl_divergence_sums_over_event_axes():
    p, q = _normal((4, 5), 0), _normal((4, 5), 1)
    kl = chainer.kl_divergence(D.Independent(p, 1), D.Independent(q, 1))
    testing.assert_allclose(
        kl.array, chainer.kl_divergence(p, q).array.sum(axis=-1), rtol=1e-5)


def test_kl_divergence_of_different_event_shapes():
    p, q = _normal((4, 5)), _normal((4, 5))
    with pytest.raises(ValueError):
        chainer.kl_divergence(D.Independent(p, 1), D.Independent(q, 2))
