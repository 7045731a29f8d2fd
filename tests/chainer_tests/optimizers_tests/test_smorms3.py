"""SMORMS3: the update against a NumPy re-statement and against the numbers of
Chainer 7.8.1 (fixtures/original_updates.npz)."""

import numpy
import pytest

from chainer import optimizers as O


def ref_smorms3(p, g, s, hp, t):
    mem = s.setdefault('mem', numpy.ones_like(p))
    gm = s.setdefault('g', numpy.zeros_like(p))
    g2 = s.setdefault('g2', numpy.zeros_like(p))
    r = 1 / (mem + 1)
    gm[...] = (1 - r) * gm + r * g
    g2[...] = (1 - r) * g2 + r * g * g
    x = gm * gm / (g2 + hp['eps'])
    p -= g * numpy.minimum(x, hp['lr']) / (numpy.sqrt(g2) + hp['eps'])
    mem[...] = 1 + mem * (1 - x)


# name: (constructor, reference, hyperparameters of the reference)
CASES = {
    'SMORMS3': (
        lambda: O.SMORMS3(lr=0.1), ref_smorms3, {'lr': 0.1, 'eps': 1e-16}),
}
FLOAT16_CASES = ()
DEFAULTS = {
    O.SMORMS3: {'lr': 0.001, 'eps': 1e-16},
}


def test_update_matches_numpy_restatement(updates, name, dtype):
    updates.check_update_matches_restatement(CASES[name], dtype)


def test_update_of_zero_dimensional_parameter(updates, name):
    updates.check_update_of_zero_dimensional_parameter(CASES[name])


def test_update_with_weight_decay_hook(updates, name):
    updates.check_update_with_weight_decay_hook(CASES[name])


def test_update_matches_chainer_7_8(updates, name, fixture_dtype,
                                    original_updates):
    updates.check_update_matches_chainer_7_8(
        CASES[name], name, fixture_dtype, original_updates)


def test_zero_dimensional_update_matches_chainer_7_8(
        updates, name, fixture_dtype, original_updates):
    updates.check_zero_dimensional_update_matches_chainer_7_8(
        CASES[name], name, fixture_dtype, original_updates)


@pytest.mark.parametrize('cls', list(DEFAULTS), ids=lambda c: c.__name__)
def test_defaults_and_proxies(updates, cls):
    updates.check_defaults_and_proxies(cls, DEFAULTS[cls])


@pytest.mark.gpu
def test_gpu_update_matches_cpu(updates, name):
    updates.check_gpu_update_matches_cpu(CASES[name])
