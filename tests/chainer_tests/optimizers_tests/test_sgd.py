"""Stochastic gradient descent: the update against a NumPy re-statement and
against the numbers of Chainer 7.8.1 (fixtures/original_updates.npz)."""

import numpy
import pytest

from chainer import optimizers as O


def ref_sgd(p, g, s, hp, t):
    p -= hp['lr'] * g


# name: (constructor, reference, hyperparameters of the reference)
CASES = {
    'SGD': (lambda: O.SGD(lr=0.1), ref_sgd, {'lr': 0.1}),
}
FLOAT16_CASES = ('SGD')
DEFAULTS = {
    O.SGD: {'lr': 0.01},
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


def test_rule_hyperparameter_overrides_optimizer(updates):
    link = updates.make_link(numpy.random.RandomState(0), numpy.float32)
    opt = O.SGD(lr=0.1).setup(link)
    link.b.update_rule.hyperparam.lr = 0.
    before_b = link.b.array.copy()
    before_W = link.W.array.copy()
    link.W.grad = numpy.ones((3, 4), numpy.float32)
    link.b.grad = numpy.ones(4, numpy.float32)
    opt.update()
    numpy.testing.assert_array_equal(link.b.array, before_b)
    numpy.testing.assert_allclose(link.W.array, before_W - 0.1, rtol=1e-6)


@pytest.mark.gpu
def test_gpu_update_matches_cpu(updates, name):
    updates.check_gpu_update_matches_cpu(CASES[name])
