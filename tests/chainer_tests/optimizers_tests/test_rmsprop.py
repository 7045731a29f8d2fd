"""RMSprop: the update against a NumPy re-statement and against the numbers of
Chainer 7.8.1 (fixtures/original_updates.npz)."""

import numpy
import pytest

from chainer import optimizers as O


def ref_rmsprop(p, g, s, hp, t):
    ms = s.setdefault('ms', numpy.zeros_like(p))
    ms[...] = hp['alpha'] * ms + (1 - hp['alpha']) * g * g
    if hp['eps_inside_sqrt']:
        denom = numpy.sqrt(ms + hp['eps'])
    else:
        denom = numpy.sqrt(ms) + hp['eps']
    p -= hp['lr'] * g / denom


# name: (constructor, reference, hyperparameters of the reference)
CASES = {
    'RMSprop': (
        lambda: O.RMSprop(lr=0.1), ref_rmsprop,
        {'lr': 0.1, 'alpha': 0.99, 'eps': 1e-8, 'eps_inside_sqrt': False}),
    'RMSpropInside': (
        lambda: O.RMSprop(lr=0.1, eps_inside_sqrt=True), ref_rmsprop,
        {'lr': 0.1, 'alpha': 0.99, 'eps': 1e-8, 'eps_inside_sqrt': True}),
}
FLOAT16_CASES = ()
DEFAULTS = {
    O.RMSprop: {'lr': 0.01, 'alpha': 0.99, 'eps': 1e-8,
                'eps_inside_sqrt': False},
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


def test_eps_too_small_for_float16(updates):
    link = updates.make_link(numpy.random.RandomState(0), numpy.float16)
    opt = O.RMSprop(eps=1e-10).setup(link)
    link.cleargrads()
    with pytest.raises(ValueError, match='eps of RMSprop'):
        opt.update()


@pytest.mark.gpu
def test_gpu_update_matches_cpu(updates, name):
    updates.check_gpu_update_matches_cpu(CASES[name])
