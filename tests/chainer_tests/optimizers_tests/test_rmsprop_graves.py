"""Graves' RMSprop: the update against a NumPy re-statement and against the
numbers of Chainer 7.8.1 (fixtures/original_updates.npz)."""

import numpy
import pytest

from chainer import optimizers as O


def ref_rmsprop_graves(p, g, s, hp, t):
    n = s.setdefault('n', numpy.zeros_like(p))
    gm = s.setdefault('g', numpy.zeros_like(p))
    delta = s.setdefault('delta', numpy.zeros_like(p))
    a = hp['alpha']
    n[...] = a * n + (1 - a) * g * g
    gm[...] = a * gm + (1 - a) * g
    delta[...] = hp['momentum'] * delta - hp['lr'] * g / numpy.sqrt(
        n - gm * gm + hp['eps'])
    p += delta


# name: (constructor, reference, hyperparameters of the reference)
CASES = {
    'RMSpropGraves': (
        lambda: O.RMSpropGraves(lr=0.1), ref_rmsprop_graves,
        {'lr': 0.1, 'alpha': 0.95, 'momentum': 0.9, 'eps': 1e-4}),
}
FLOAT16_CASES = ()
DEFAULTS = {
    O.RMSpropGraves: {'lr': 1e-4, 'alpha': 0.95, 'momentum': 0.9,
                      'eps': 1e-4},
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
