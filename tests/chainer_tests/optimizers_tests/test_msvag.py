"""MSVAG: the update against a NumPy re-statement and against the numbers of
Chainer 7.8.1 (fixtures/original_updates.npz)."""

import numpy

import chainer
import pytest

from chainer import optimizers as O
from chainer.serializers import npz


# Its variance estimate vt - mt ** 2 cancels digits in float32.
MSVAG_FLOAT32_TOLERANCE = {'rtol': 1e-3, 'atol': 1e-4}


def ref_msvag(p, g, s, hp, t):
    m = s.setdefault('m', numpy.zeros_like(p))
    v = s.setdefault('v', numpy.zeros_like(p))
    beta = hp['beta']
    bp = beta ** t
    rho = min(((1 - beta) ** 2) * (1 - bp ** 2)
              / (((1 - bp) ** 2) * (1 - beta ** 2)), 0.9999)
    m += (1 - beta) * (g - m)
    v += (1 - beta) * (g * g - v)
    mt = m / (1 - bp)
    vt = v / (1 - bp)
    s_ = (vt - mt * mt) / (1 - rho)
    with numpy.errstate(invalid='ignore'):
        factor = numpy.clip(mt * mt / (mt * mt + rho * s_), 0, 1)
    factor[numpy.isnan(factor)] = 0
    p -= hp['eta'] * (hp['lr'] * mt * factor + hp['weight_decay_rate'] * p)


# name: (constructor, reference, hyperparameters of the reference)
CASES = {
    'MSVAG': (
        lambda: O.MSVAG(lr=0.1, weight_decay_rate=0.1), ref_msvag,
        {'lr': 0.1, 'beta': 0.9, 'eta': 1.0, 'weight_decay_rate': 0.1}),
}
FLOAT16_CASES = ()
DEFAULTS = {
    O.MSVAG: {'lr': 0.1, 'beta': 0.9, 'eta': 1.0, 'weight_decay_rate': 0},
}


def test_update_matches_numpy_restatement(updates, name, dtype):
    tol = MSVAG_FLOAT32_TOLERANCE if dtype == numpy.float32 else None
    updates.check_update_matches_restatement(CASES[name], dtype, tol=tol)


def test_update_of_zero_dimensional_parameter(updates, name):
    updates.check_update_of_zero_dimensional_parameter(CASES[name])


def test_update_with_weight_decay_hook(updates, name):
    updates.check_update_with_weight_decay_hook(CASES[name])


def test_update_matches_chainer_7_8(updates, name, fixture_dtype,
                                    original_updates):
    updates.check_update_matches_chainer_7_8(
        CASES[name], name, fixture_dtype, original_updates, rtol=1e-6)


def test_zero_dimensional_update_matches_chainer_7_8(
        updates, name, fixture_dtype, original_updates):
    updates.check_zero_dimensional_update_matches_chainer_7_8(
        CASES[name], name, fixture_dtype, original_updates)


@pytest.mark.parametrize('cls', list(DEFAULTS), ids=lambda c: c.__name__)
def test_defaults_and_proxies(updates, cls):
    updates.check_defaults_and_proxies(cls, DEFAULTS[cls])


def test_beta_power_is_a_running_product():
    # As in Chainer: each update multiplies it by the beta of that step, so
    # a changed beta applies from then on (beta ** t would redo the past).
    link = chainer.links.Linear(2, 2)
    opt = O.MSVAG(beta=0.5).setup(link)
    for step in range(4):
        if step == 2:
            opt.hyperparam.beta = 0.25
        link.W.grad = numpy.ones((2, 2), numpy.float32)
        link.b.grad = numpy.ones(2, numpy.float32)
        opt.update()
    assert link.W.update_rule.beta_power == 0.5 * 0.5 * 0.5 * 0.25 * 0.25


def test_msvag_resumes_exactly(updates):
    # The bias correction of a loaded rule continues from its t.
    full, _, _ = updates.train(
        lambda: O.MSVAG(lr=0.1), numpy.float64, steps=4)
    half, opt, _ = updates.train(
        lambda: O.MSVAG(lr=0.1), numpy.float64, steps=2)
    saved = {}
    half.serialize(npz.DictionarySerializer(saved, 'model/'))
    opt.serialize(npz.DictionarySerializer(saved, 'opt/'))
    rng = numpy.random.RandomState(1)
    resumed = updates.make_link(rng, numpy.float64)
    opt2 = O.MSVAG(lr=0.1).setup(resumed)
    resumed.serialize(npz.NpzDeserializer(saved, 'model/'))
    opt2.serialize(npz.NpzDeserializer(saved, 'opt/'))
    for _ in range(2):
        rng.randn(3, 4), rng.randn(4)
    for _ in range(2):
        resumed.W.grad = rng.randn(3, 4)
        resumed.b.grad = rng.randn(4)
        opt2.update()
    numpy.testing.assert_array_equal(resumed.W.array, full.W.array)


@pytest.mark.gpu
def test_gpu_update_matches_cpu(updates, name):
    updates.check_gpu_update_matches_cpu(CASES[name])
