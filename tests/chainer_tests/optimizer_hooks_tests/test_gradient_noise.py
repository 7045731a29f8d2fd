"""Gradient noise (optimizer_hooks.GradientNoise)."""

import numpy
import pytest

from chainer import optimizer_hooks
from chainer.optimizer_hooks import gradient_noise


def test_attributes(hook_check):
    hook_check.check_attributes(optimizer_hooks.GradientNoise(0.1), True)


def test_gradient_noise_with_custom_function(hook_check):
    calls = []

    def noise(xp, shape, dtype, hook, opt):
        calls.append((shape, dtype, hook.eta, opt.t))
        return xp.full(shape, 0.5, dtype)

    link = hook_check.make_link()
    before = {p.name: p.grad.copy() for p in link.params(False)}
    seen = hook_check.apply_hook(
        optimizer_hooks.GradientNoise(0.3, noise), link)
    for name, grad in before.items():
        numpy.testing.assert_allclose(seen[name], grad + 0.5, rtol=1e-6)
    assert sorted(calls) == [((3, 4), numpy.float32, 0.3, 0),
                             ((4,), numpy.float32, 0.3, 0)]


def test_exponential_decay_noise():
    class Rule:
        t = 3

    class Hook:
        eta = 0.2

    numpy.random.seed(7)
    noise = gradient_noise.exponential_decay_noise(
        numpy, (1000,), numpy.float32, Hook(), Rule())
    numpy.random.seed(7)
    std = numpy.sqrt(0.2 / (1 + 3) ** 0.55)
    expected = numpy.random.normal(0, std, (1000,)).astype(numpy.float32)
    assert noise.dtype == numpy.float32
    numpy.testing.assert_array_equal(noise, expected)
    assert noise.std() == pytest.approx(std, rel=0.1)


def test_skips_parameters_without_arrays(hook_check):
    hook_check.check_skips_parameters_without_arrays(
        optimizer_hooks.GradientNoise(0.1))
