"""The weight decay hook (optimizer_hooks.WeightDecay)."""

import numpy
import pytest

from chainer import optimizer_hooks


def test_attributes(hook_check):
    hook_check.check_attributes(optimizer_hooks.WeightDecay(0.1), True)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_weight_decay(hook_check, dtype):
    link = hook_check.make_link(dtype)
    expected = {p.name: p.grad + dtype(0.2) * p.array
                for p in link.params(False)}
    seen = hook_check.apply_hook(optimizer_hooks.WeightDecay(0.2), link)
    for name, grad in expected.items():
        numpy.testing.assert_allclose(seen[name], grad, rtol=1e-6)


def test_weight_decay_scales_with_loss_scale(hook_check):
    link = hook_check.make_link()
    link.W._loss_scale = 4.
    expected = link.W.grad + numpy.float32(0.8) * link.W.array
    optimizer_hooks.WeightDecay(0.2)(link.W.update_rule, link.W)
    numpy.testing.assert_allclose(link.W.grad, expected, rtol=1e-6)


def test_skips_parameters_without_arrays(hook_check):
    hook_check.check_skips_parameters_without_arrays(
        optimizer_hooks.WeightDecay(0.1))
