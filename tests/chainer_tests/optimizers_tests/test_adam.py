"""Adam and its variants (AdamW, AMSGrad, AdaBound, AMSBound): the update
against a NumPy re-statement and against the numbers of Chainer 7.8.1
(fixtures/original_updates.npz)."""

import math
import pickle

import numpy
import pytest

from chainer import optimizers as O
from chainer.optimizers import adam


def ref_adam(p, g, s, hp, t):
    m = s.setdefault('m', numpy.zeros_like(p))
    v = s.setdefault('v', numpy.zeros_like(p))
    m += (1 - hp['beta1']) * (g - m)
    v += (1 - hp['beta2']) * (g * g - v)
    denom = v
    if hp.get('amsgrad'):
        vhat = s.setdefault('vhat', numpy.zeros_like(p))
        vhat[...] = numpy.maximum(vhat, v)
        denom = vhat
    alpha_t = hp['alpha'] * math.sqrt(1 - hp['beta2'] ** t) / (
        1 - hp['beta1'] ** t)
    step = alpha_t / (numpy.sqrt(denom) + hp['eps'])
    if hp.get('adabound'):
        final_lr = hp['final_lr']
        lower = final_lr * (1 - 1 / (hp['gamma'] * t + 1))
        upper = final_lr * (1 + 1 / (hp['gamma'] * t))
        step = numpy.clip(step, lower, upper)
    p -= hp['eta'] * (step * m + hp['weight_decay_rate'] * p)


# name: (constructor, reference, hyperparameters of the reference)
CASES = {
    'Adam': (
        lambda: O.Adam(alpha=0.05), ref_adam,
        {'alpha': 0.05, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
         'eta': 1.0, 'weight_decay_rate': 0}),
    'AdamDecay': (
        lambda: O.Adam(alpha=0.05, weight_decay_rate=0.1, eta=0.5),
        ref_adam,
        {'alpha': 0.05, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
         'eta': 0.5, 'weight_decay_rate': 0.1}),
    'AdamW': (
        lambda: O.AdamW(weight_decay_rate=0.01), ref_adam,
        {'alpha': 0.001, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
         'eta': 1.0, 'weight_decay_rate': 0.01}),
    'AMSGrad': (
        lambda: O.AMSGrad(alpha=0.05), ref_adam,
        {'alpha': 0.05, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
         'eta': 1.0, 'weight_decay_rate': 0, 'amsgrad': True}),
    'AdaBound': (
        lambda: O.AdaBound(alpha=0.05), ref_adam,
        {'alpha': 0.05, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
         'eta': 1.0, 'weight_decay_rate': 0, 'adabound': True,
         'final_lr': 0.1, 'gamma': 1e-3}),
    'AMSBound': (
        lambda: O.AMSBound(alpha=0.05), ref_adam,
        {'alpha': 0.05, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
         'eta': 1.0, 'weight_decay_rate': 0, 'adabound': True,
         'amsgrad': True, 'final_lr': 0.1, 'gamma': 1e-3}),
}
FLOAT16_CASES = ('Adam', 'AMSGrad', 'AdaBound')
DEFAULTS = {
    O.Adam: {'alpha': 0.001, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
             'eta': 1.0, 'weight_decay_rate': 0, 'amsgrad': False,
             'adabound': False, 'final_lr': 0.1, 'gamma': 1e-3},
    O.AMSGrad: {'amsgrad': True, 'adabound': False},
    O.AdaBound: {'amsgrad': False, 'adabound': True},
    O.AMSBound: {'amsgrad': True, 'adabound': True},
    O.AdamW: {'weight_decay_rate': 0},
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


def test_rule_works_without_an_optimizer():
    assert adam.AdamRule().hyperparam.alpha == 0.001


def test_update_modifies_arrays_in_place(updates):
    link, _, _ = updates.train(lambda: O.Adam(), numpy.float32, steps=1)
    W = link.W.array
    m = link.W.update_rule.state['m']
    link.W.grad = numpy.ones((3, 4), numpy.float32)
    link.W.update()
    assert link.W.array is W and link.W.update_rule.state['m'] is m


def test_adam_learning_rate_and_bounds(updates):
    opt = O.AdaBound(alpha=0.01, final_lr=0.2, gamma=0.1)
    with pytest.raises(RuntimeError, match='learning rate'):
        opt.alpha_t
    link = updates.make_link(numpy.random.RandomState(0), numpy.float32)
    opt.setup(link)
    link.W.grad = numpy.ones((3, 4), numpy.float32)
    link.b.grad = numpy.ones(4, numpy.float32)
    opt.update()
    opt.update()
    expected = 0.01 * math.sqrt(1 - 0.999 ** 2) / (1 - 0.9 ** 2)
    assert opt.alpha_t == pytest.approx(expected)
    rule = link.W.update_rule
    assert rule.alpha_t == pytest.approx(expected)
    with pytest.warns(DeprecationWarning):
        assert opt.lr == pytest.approx(expected)
    with pytest.warns(DeprecationWarning):
        assert rule.lr == pytest.approx(expected)
    lower, upper = rule.bounds
    assert lower == pytest.approx(0.2 * (1 - 1 / (0.1 * 2 + 1)))
    assert upper == pytest.approx(0.2 * (1 + 1 / (0.1 * 2)))
    # Changing alpha scales the final learning rate.
    opt.alpha = 0.02
    assert rule.bounds[0] == pytest.approx(2 * lower)
    with pytest.raises(RuntimeError, match='bounds'):
        O.AdaBound().create_update_rule().bounds


def test_optimizer_pickles_with_its_target(updates):
    link, opt, _ = updates.train(lambda: O.Adam(alpha=0.01), numpy.float32, 2)
    clone = pickle.loads(pickle.dumps(opt))
    assert clone.t == 2 and clone.alpha == 0.01
    assert clone.target.W.update_rule.hyperparam.parent is clone.hyperparam
    for opt_, link_ in ((opt, link), (clone, clone.target)):
        link_.W.grad = numpy.ones((3, 4), numpy.float32)
        link_.b.grad = numpy.ones(4, numpy.float32)
        opt_.update()
    numpy.testing.assert_array_equal(clone.target.W.array, link.W.array)


def test_eps_too_small_for_float16(updates):
    link = updates.make_link(numpy.random.RandomState(0), numpy.float16)
    opt = O.Adam(eps=1e-10).setup(link)
    link.cleargrads()
    # Adam computes in float32 for float16 parameters: 1e-10 is fine.
    opt.update()
    opt.eps = 1e-50
    with pytest.raises(ValueError, match='eps of Adam'):
        opt.update()


@pytest.mark.gpu
def test_gpu_update_matches_cpu(updates, name):
    updates.check_gpu_update_matches_cpu(CASES[name])
