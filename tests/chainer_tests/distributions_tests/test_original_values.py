"""The distributions against the numbers of Chainer 7.8.1.

fixtures/original_values.npz holds, for each configuration of
fixtures/make_fixture.py, what Chainer 7.8.1 computes: statistics,
functions of points, the KL divergence, samples after
``numpy.random.seed(0)`` and gradients (see the script for the keys).
"""

import importlib.util
import os
import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing

FIXTURES = os.path.join(os.path.dirname(__file__), 'fixtures')


def _load():
    path = os.path.join(FIXTURES, 'make_fixture.py')
    spec = importlib.util.spec_from_file_location(
        'distributions_make_fixture', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    data = numpy.load(os.path.join(FIXTURES, 'original_values.npz'))
    return module, {k: data[k] for k in data.files}


make_fixture, ORIGINAL = _load()
CONFIGS = sorted(make_fixture.CONFIGS)
MEMBERS = (make_fixture.STATISTICS + make_fixture.FUNCTIONS
           + ('icdf', 'kl', 'sample'))


def _entries(name, prefix):
    head = '{}/{}/'.format(name, prefix)
    return {k[len(head):]: v for k, v in ORIGINAL.items()
            if k.startswith(head)}


def _compute(name, member, params):
    dist = make_fixture.make(name, params)
    if member in make_fixture.STATISTICS:
        return getattr(dist, member)
    if member in make_fixture.FUNCTIONS:
        return getattr(dist, member)(ORIGINAL[name + '/x'])
    if member == 'icdf':
        return dist.icdf(ORIGINAL[name + '/q'])
    if member == 'kl':
        return chainer.kl_divergence(
            dist, make_fixture.make(name, _entries(name, 'param2')))
    numpy.random.seed(0)
    return dist.sample((2,))


@pytest.mark.parametrize('member', MEMBERS)
@pytest.mark.parametrize('name', CONFIGS)
def test_member(name, member):
    params = _entries(name, 'param')
    error = ORIGINAL.get('{}/error/{}'.format(name, member))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        if error is not None:
            with pytest.raises(Exception) as info:
                _compute(name, member, params)
            assert type(info.value).__name__ == str(error)
            return
        y = _compute(name, member, params).array
    expected = ORIGINAL['{}/{}'.format(name, member)]
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


@pytest.mark.parametrize('name', CONFIGS)
def test_grad_log_prob(name):
    variables = _variables(name)
    log_prob = make_fixture.make(name, variables).log_prob(
        ORIGINAL[name + '/x'])
    grads = chainer.grad([F.sum(log_prob)], list(variables.values()))
    _check_grads(_entries(name, 'grad_log_prob'), variables, grads)


@pytest.mark.parametrize('name', CONFIGS)
def test_grad_sample(name):
    """Reparameterised samples give the same gradients; others none."""
    variables = _variables(name)
    numpy.random.seed(0)
    sample = make_fixture.make(name, variables).sample((2,))
    expected = _entries(name, 'grad_sample')
    if sample.creator is None:
        assert expected == {}
        return
    grads = chainer.grad([F.sum(sample * sample)], list(variables.values()))
    _check_grads(expected, variables, grads)
