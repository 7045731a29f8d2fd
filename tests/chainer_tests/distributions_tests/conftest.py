"""Shared checks of the distribution tests, given by the fixture
``distribution_check``.

The numbers of Chainer 7.8.1: fixtures/original_values.npz holds, for each
configuration of fixtures/make_fixture.py, what Chainer 7.8.1 computes:
statistics, functions of points, the KL divergence, samples after
``numpy.random.seed(0)`` and gradients (see the script for the keys). A
test module lists its configurations in ``CHAINER_7_8_CONFIGS``; a test
function taking ``config`` runs over them, and one also taking ``member``
over the members of the fixture too.
"""

import functools
import importlib.util
import os
import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing

FIXTURES = os.path.join(os.path.dirname(__file__), 'fixtures')


@functools.cache
def _make_fixture():
    path = os.path.join(FIXTURES, 'make_fixture.py')
    spec = importlib.util.spec_from_file_location(
        'distributions_make_fixture', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def _original():
    with numpy.load(os.path.join(FIXTURES, 'original_values.npz')) as data:
        return {k: data[k] for k in data.files}


def _members():
    make_fixture = _make_fixture()
    return (make_fixture.STATISTICS + make_fixture.FUNCTIONS
            + ('icdf', 'kl', 'sample'))


def pytest_generate_tests(metafunc):
    configs = getattr(metafunc.module, 'CHAINER_7_8_CONFIGS', None)
    if configs is None or 'config' not in metafunc.fixturenames:
        return
    unknown = set(configs) - set(_make_fixture().CONFIGS)
    assert not unknown, unknown
    metafunc.parametrize('config', sorted(configs))
    if 'member' in metafunc.fixturenames:
        metafunc.parametrize('member', _members())


def _entries(name, prefix):
    head = '{}/{}/'.format(name, prefix)
    return {k[len(head):]: v for k, v in _original().items()
            if k.startswith(head)}


def _compute(name, member, params):
    make_fixture = _make_fixture()
    original = _original()
    dist = make_fixture.make(name, params)
    if member in make_fixture.STATISTICS:
        return getattr(dist, member)
    if member in make_fixture.FUNCTIONS:
        return getattr(dist, member)(original[name + '/x'])
    if member == 'icdf':
        return dist.icdf(original[name + '/q'])
    if member == 'kl':
        return chainer.kl_divergence(
            dist, make_fixture.make(name, _entries(name, 'param2')))
    numpy.random.seed(0)
    return dist.sample((2,))


def check_member(name, member):
    original = _original()
    params = _entries(name, 'param')
    error = original.get('{}/error/{}'.format(name, member))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        if error is not None:
            with pytest.raises(Exception) as info:
                _compute(name, member, params)
            assert type(info.value).__name__ == str(error)
            return
        y = _compute(name, member, params).array
    expected = original['{}/{}'.format(name, member)]
    assert y.dtype == expected.dtype
    assert y.shape == expected.shape
    if y.dtype.kind == 'f':
        testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)
    else:
        numpy.testing.assert_array_equal(y, expected)


def _variables(name):
    return {k: chainer.Variable(v)
            for k, v in _entries(name, 'param').items()}


def _check_grads(expected, variables, grads):
    got = {k: g.array for k, g in zip(variables, grads) if g is not None}
    assert sorted(got) == sorted(expected)
    for k in expected:
        testing.assert_allclose(got[k], expected[k], rtol=1e-5, atol=1e-6)


def check_grad_log_prob(name):
    variables = _variables(name)
    log_prob = _make_fixture().make(name, variables).log_prob(
        _original()[name + '/x'])
    grads = chainer.grad([F.sum(log_prob)], list(variables.values()))
    _check_grads(_entries(name, 'grad_log_prob'), variables, grads)


def check_grad_sample(name):
    """Reparameterised samples give the same gradients; others none."""
    variables = _variables(name)
    numpy.random.seed(0)
    sample = _make_fixture().make(name, variables).sample((2,))
    expected = _entries(name, 'grad_sample')
    if sample.creator is None:
        assert expected == {}
        return
    grads = chainer.grad([F.sum(sample * sample)], list(variables.values()))
    _check_grads(expected, variables, grads)


# Random parameters of the Monte Carlo check of the KL divergence.
KL_SHAPE = (3,)


def pos(rng, low=0.5, high=2., shape=KL_SHAPE):
    return rng.uniform(low, high, shape).astype(numpy.float32)


def simplex(rng):
    p = pos(rng, 0.1, 1., KL_SHAPE + (3,))
    return p / p.sum(axis=-1, keepdims=True)


def tril(rng):
    a = rng.normal(size=KL_SHAPE + (3, 3))
    return numpy.linalg.cholesky(
        a @ numpy.swapaxes(a, -1, -2) + numpy.eye(3)).astype(numpy.float32)


def check_kl_against_monte_carlo(make, make_q=None):
    """The registered KL divergence of two random distributions against a
    Monte Carlo estimate.

    ``make(helpers, rng)`` draws a distribution; ``make_q(p)``, if given,
    makes the second one from the first.
    """
    rng = numpy.random.RandomState(0)
    p = make(_Helpers, rng)
    q = make(_Helpers, rng)
    if make_q is not None:
        q = make_q(p)
    kl = chainer.kl_divergence(p, q).array
    numpy.random.seed(0)
    x = p.sample(100000)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        mc = numpy.mean(p.log_prob(x).array - q.log_prob(x).array, axis=0)
    testing.assert_allclose(kl, mc, atol=2e-2, rtol=2e-2)


class _Helpers:
    KL_SHAPE = KL_SHAPE
    pos = staticmethod(pos)
    simplex = staticmethod(simplex)
    tril = staticmethod(tril)
    check_member = staticmethod(check_member)
    check_grad_log_prob = staticmethod(check_grad_log_prob)
    check_grad_sample = staticmethod(check_grad_sample)
    check_kl_against_monte_carlo = staticmethod(check_kl_against_monte_carlo)


@pytest.fixture
def distribution_check():
    """The helpers above, for the test modules of this folder."""
    return _Helpers
