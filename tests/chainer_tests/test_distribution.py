"""The Distribution interface, the KL registry and cross entropy
(chainer.distribution)."""

import subprocess
import sys

import numpy
import pytest

import chainer
from chainer import distributions as D
from chainer import testing


class _Constant(chainer.Distribution):
    """A point mass at zero, with batch shape (2,) and event shape (3,)."""

    def __init__(self):
        self.calls = []

    @property
    def batch_shape(self):
        return (2,)

    @property
    def event_shape(self):
        return (3,)

    @property
    def params(self):
        return {'value': numpy.zeros((2, 3), numpy.float32)}

    def sample_n(self, n):
        self.calls.append(n)
        return chainer.Variable(
            numpy.arange(n * 6, dtype=numpy.float32).reshape(n, 2, 3))


@pytest.mark.parametrize('sample_shape,n,shape', [
    ((), 1, (2, 3)),
    (4, 4, (4, 2, 3)),
    ((4,), 4, (4, 2, 3)),
    ((2, 5), 10, (2, 5, 2, 3)),
    ([2, 5], 10, (2, 5, 2, 3)),
])
def test_sample_reshapes_sample_n(sample_shape, n, shape):
    dist = _Constant()
    y = dist.sample(sample_shape)
    assert dist.calls == [n]
    assert y.shape == shape
    numpy.testing.assert_array_equal(y.array.ravel(), numpy.arange(n * 6))


def test_xp_follows_params():
    assert _Constant().xp is numpy


@pytest.mark.parametrize('member', [
    'batch_shape', 'event_shape', 'params', 'support', 'mean', 'mode',
    'variance', 'stddev', 'covariance', 'entropy'])
def test_base_properties_are_abstract(member):
    with pytest.raises(NotImplementedError):
        getattr(chainer.Distribution(), member)


@pytest.mark.parametrize('method', [
    'cdf', 'icdf', 'log_cdf', 'log_prob', 'log_survival_function',
    'perplexity', 'prob', 'survival_function', 'sample_n'])
def test_base_methods_are_abstract(method):
    with pytest.raises(NotImplementedError):
        getattr(chainer.Distribution(), method)(1)


def test_names_of_chainer():
    assert chainer.Distribution is D.Normal.__mro__[1]
    for name in ('kl_divergence', 'cross_entropy', 'register_kl'):
        assert callable(getattr(chainer, name))


def test_import_chainer_does_not_import_scipy():
    code = 'import sys, chainer; print("scipy" in sys.modules)'
    out = subprocess.check_output([sys.executable, '-c', code])
    assert out.decode().strip() == 'False'


def _normals(seed):
    rng = numpy.random.RandomState(seed)
    loc = rng.normal(size=(3,)).astype(numpy.float32)
    scale = rng.uniform(0.5, 2, (3,)).astype(numpy.float32)
    return D.Normal(loc, scale)


def test_kl_divergence_of_normals():
    p, q = _normals(0), _normals(1)
    m1, s1, m2, s2 = (a.array.astype(numpy.float64)
                      for a in (p.loc, p.scale, q.loc, q.scale))
    expected = (numpy.log(s2 / s1) + (s1 ** 2 + (m1 - m2) ** 2)
                / (2 * s2 ** 2) - 0.5)
    testing.assert_allclose(chainer.kl_divergence(p, q).array, expected,
                            rtol=1e-5)


def test_kl_divergence_unregistered_pair():
    with pytest.raises(KeyError, match='Normal and Laplace'):
        chainer.kl_divergence(
            _normals(0), D.Laplace(numpy.zeros(3, numpy.float32),
                                   numpy.ones(3, numpy.float32)))


def test_register_kl_dispatches_on_exact_types():
    class MyNormal(D.Normal):
        pass

    def make():
        return MyNormal(numpy.zeros(2, numpy.float32),
                        numpy.ones(2, numpy.float32))

    with pytest.raises(KeyError):
        chainer.kl_divergence(make(), make())

    @chainer.register_kl(MyNormal, MyNormal)
    def kl(dist1, dist2):
        return chainer.as_variable(numpy.array(42, numpy.float32))

    assert kl is not None
    assert chainer.kl_divergence(make(), make()).array == 42


def test_cross_entropy_is_entropy_plus_kl():
    p, q = _normals(0), _normals(1)
    expected = p.entropy.array + chainer.kl_divergence(p, q).array
    testing.assert_allclose(chainer.cross_entropy(p, q).array, expected)


def test_cross_entropy_calls_an_entropy_method():
    class WithMethod(chainer.Distribution):
        def entropy(self):
            return chainer.as_variable(numpy.array(1.5, numpy.float32))

    @chainer.register_kl(WithMethod, WithMethod)
    def kl(dist1, dist2):
        return chainer.as_variable(numpy.array(0.25, numpy.float32))

    y = chainer.cross_entropy(WithMethod(), WithMethod())
    assert y.array == numpy.float32(1.75)


def test_cross_entropy_of_normals_is_differentiable():
    loc = chainer.Variable(numpy.zeros(3, numpy.float32))
    p = D.Normal(loc, numpy.ones(3, numpy.float32))
    y = chainer.cross_entropy(p, _normals(1))
    chainer.functions.sum(y).backward()
    assert loc.grad is not None
