"""Shared machinery of the optimizer tests.

Each test module holds ``CASES``, ``{name: (make, reference,
hyperparameters)}``: a constructor of the optimizer, a NumPy re-statement
of its update rule and the hyperparameters the re-statement reads, and
``FLOAT16_CASES``, the names also checked in float16. A re-statement
works in float64 on the parameter ``p``, the gradient ``g`` and the state
dictionary ``s`` (filled at the first call), with the step count ``t``
(from 1).

``pytest_generate_tests`` parametrizes by argument name: ``name`` alone
runs over the cases, ``name, dtype`` over the cases and their dtypes, and
``name, fixture_dtype`` over those held in ``fixtures/original_updates.npz``
(the numbers of Chainer 7.8.1: float32 and float16). The fixture
``updates`` gives the helpers below to the test modules.
"""

import os

import numpy
import pytest

import chainer
from chainer import optimizer_hooks

FIXTURE = os.path.join(
    os.path.dirname(__file__), 'fixtures', 'original_updates.npz')

TOLERANCE = {
    numpy.float16: {'rtol': 1e-2, 'atol': 1e-2},
    numpy.float32: {'rtol': 1e-5, 'atol': 1e-6},
    numpy.float64: {'rtol': 1e-12, 'atol': 1e-14},
}


def dtype_cases(module):
    for name in module.CASES:
        for dtype in (numpy.float32, numpy.float64):
            yield name, dtype
        if name in module.FLOAT16_CASES:
            yield name, numpy.float16


def pytest_generate_tests(metafunc):
    module = metafunc.module
    if not hasattr(module, 'CASES'):
        return
    names = metafunc.fixturenames
    if 'name' not in names:
        return
    if 'dtype' in names:
        metafunc.parametrize('name, dtype', list(dtype_cases(module)))
    elif 'fixture_dtype' in names:
        metafunc.parametrize('name, fixture_dtype', [
            (name, dtype) for name, dtype in dtype_cases(module)
            if dtype != numpy.float64])
    else:
        metafunc.parametrize('name', sorted(module.CASES))


def make_link(rng, dtype):
    link = chainer.Link()
    with link.init_scope():
        link.W = chainer.Parameter(rng.randn(3, 4).astype(dtype))
        link.b = chainer.Parameter(rng.randn(4).astype(dtype))
    return link


def train(make, dtype, steps=6, hooks=()):
    """Updates a (3, 4) weight and a (4,) bias from fixed gradients."""
    rng = numpy.random.RandomState(1)
    link = make_link(rng, dtype)
    opt = make().setup(link)
    for hook in hooks:
        opt.add_hook(hook)
    grads = []
    for _ in range(steps):
        gW = rng.randn(3, 4).astype(dtype)
        gb = rng.randn(4).astype(dtype)
        grads.append((gW, gb))
        link.W.grad = gW.copy()
        link.b.grad = gb.copy()
        opt.update()
    return link, opt, grads


def reference(case, dtype, steps=6, decay=None):
    """What ``train`` gives, by the re-statement of ``case`` in float64."""
    _, ref, hp = case
    rng = numpy.random.RandomState(1)
    initial = make_link(rng, dtype)
    params = [initial.W.array.astype(numpy.float64),
              initial.b.array.astype(numpy.float64)]
    states = [{}, {}]
    for t in range(1, steps + 1):
        grads = [rng.randn(3, 4).astype(dtype).astype(numpy.float64),
                 rng.randn(4).astype(dtype).astype(numpy.float64)]
        for p, g, s in zip(params, grads, states):
            if decay is not None:
                g = g + decay * p
            ref(p, g, s, hp, t)
    return params, states


def check_update_matches_restatement(case, dtype, tol=None):
    link, opt, _ = train(case[0], dtype)
    params, states = reference(case, dtype)
    tol = tol or TOLERANCE[dtype]
    assert opt.t == 6
    assert link.W.dtype == dtype and link.b.dtype == dtype
    numpy.testing.assert_allclose(link.W.array, params[0], **tol)
    numpy.testing.assert_allclose(link.b.array, params[1], **tol)
    state = link.W.update_rule.state or {}
    assert sorted(state) == sorted(states[0])
    for key, value in states[0].items():
        assert state[key].dtype == dtype
        numpy.testing.assert_allclose(state[key], value, **tol)


def check_update_of_zero_dimensional_parameter(case):
    # NumPy returns scalars, not arrays, from ufuncs on 0-d arrays; the
    # updates must still work in place.
    make, ref, hp = case
    link = chainer.Link()
    with link.init_scope():
        link.p = chainer.Parameter(numpy.array(0.5))
    opt = make().setup(link)
    expected = numpy.array([0.5])
    state = {}
    for t, g in enumerate((0.3, -0.2, 0.1), 1):
        link.p.grad = numpy.array(g)
        opt.update()
        ref(expected, numpy.array([g]), state, hp, t)
    assert link.p.array.shape == ()
    numpy.testing.assert_allclose(link.p.array, expected[0], rtol=1e-12)


def check_update_with_weight_decay_hook(case):
    link, _, _ = train(
        case[0], numpy.float64, hooks=[optimizer_hooks.WeightDecay(0.05)])
    params, _ = reference(case, numpy.float64, decay=0.05)
    numpy.testing.assert_allclose(link.W.array, params[0], rtol=1e-12,
                                  atol=1e-14)
    numpy.testing.assert_allclose(link.b.array, params[1], rtol=1e-12,
                                  atol=1e-14)


def check_update_matches_chainer_7_8(case, name, dtype, original_updates,
                                     rtol=None):
    link, _, _ = train(case[0], dtype)
    actual = numpy.concatenate([link.W.array.ravel(), link.b.array])
    expected = original_updates[numpy.dtype(dtype).name, name]
    if rtol is None:
        numpy.testing.assert_array_equal(actual, expected)
    else:
        numpy.testing.assert_allclose(actual, expected, rtol=rtol)


def check_zero_dimensional_update_matches_chainer_7_8(
        case, name, dtype, original_updates):
    # The run of fixtures/make_fixture.py's run_0d.
    rng = numpy.random.RandomState(2)
    link = chainer.Link()
    with link.init_scope():
        link.p = chainer.Parameter(numpy.array(rng.randn(), dtype))
    opt = case[0]().setup(link)
    for _ in range(6):
        link.p.grad = numpy.array(rng.randn(), dtype)
        opt.update()
    assert link.p.array.shape == () and link.p.dtype == dtype
    expected = original_updates[numpy.dtype(dtype).name + '_0d', name]
    numpy.testing.assert_array_equal(link.p.array, expected)


def check_defaults_and_proxies(cls, defaults):
    opt = cls()
    for key, value in defaults.items():
        assert getattr(opt, key) == value
        assert getattr(opt.hyperparam, key) == value
    rule = opt.create_update_rule()
    assert isinstance(rule, chainer.optimizer.UpdateRule)
    assert rule.is_elementwise
    assert rule.hyperparam.parent is opt.hyperparam
    first = next(iter(defaults))
    if not isinstance(getattr(opt, first), bool):
        setattr(opt, first, 0.5)
        assert getattr(rule.hyperparam, first) == 0.5


def check_gpu_update_matches_cpu(case):
    make = case[0]
    cpu_link, _, _ = train(make, numpy.float32)
    rng = numpy.random.RandomState(1)
    link = make_link(rng, numpy.float32)
    link.to_device('@cupy:0')
    opt = make().setup(link)
    for _ in range(6):
        link.W.grad = link.W.device.send(rng.randn(3, 4).astype('f'))
        link.b.grad = link.b.device.send(rng.randn(4).astype('f'))
        opt.update()
    numpy.testing.assert_allclose(
        chainer.backends.cuda.to_cpu(link.W.array), cpu_link.W.array,
        rtol=1e-5, atol=1e-6)


class _Helpers:
    TOLERANCE = TOLERANCE
    make_link = staticmethod(make_link)
    train = staticmethod(train)
    reference = staticmethod(reference)
    check_update_matches_restatement = staticmethod(
        check_update_matches_restatement)
    check_update_of_zero_dimensional_parameter = staticmethod(
        check_update_of_zero_dimensional_parameter)
    check_update_with_weight_decay_hook = staticmethod(
        check_update_with_weight_decay_hook)
    check_update_matches_chainer_7_8 = staticmethod(
        check_update_matches_chainer_7_8)
    check_zero_dimensional_update_matches_chainer_7_8 = staticmethod(
        check_zero_dimensional_update_matches_chainer_7_8)
    check_defaults_and_proxies = staticmethod(check_defaults_and_proxies)
    check_gpu_update_matches_cpu = staticmethod(check_gpu_update_matches_cpu)


@pytest.fixture
def updates():
    """The helpers above, for the test modules of this folder."""
    return _Helpers


@pytest.fixture(scope='session')
def original_updates():
    """``{(dtype name, case name): final weight and bias, flattened}``,
    and ``{(dtype name + '_0d', case name): final 0-d parameter}``."""
    with numpy.load(FIXTURE) as f:
        return {(key, name): row
                for dtype in ('float32', 'float16')
                for key in (dtype, dtype + '_0d')
                for name, row in zip(f[dtype + '_names'], f[key])}
