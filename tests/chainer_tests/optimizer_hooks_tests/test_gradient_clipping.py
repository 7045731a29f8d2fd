"""Clipping of the gradient norm (optimizer_hooks.GradientClipping)."""

import numpy
import pytest

from chainer import optimizer_hooks


def test_attributes(hook_check):
    hook_check.check_attributes(optimizer_hooks.GradientClipping(1.), False)


@pytest.mark.parametrize('threshold', [0.5, 100.])
def test_gradient_clipping(hook_check, threshold):
    link = hook_check.make_link(numpy.float64)
    grads = {p.name: p.grad.copy() for p in link.params(False)}
    norm = numpy.sqrt(sum((g ** 2).sum() for g in grads.values()))
    seen = hook_check.apply_hook(
        optimizer_hooks.GradientClipping(threshold), link)
    rate = min(1., threshold / norm)
    for name, grad in grads.items():
        numpy.testing.assert_allclose(seen[name], grad * rate, rtol=1e-12)
    if threshold < norm:
        clipped = numpy.sqrt(sum((g ** 2).sum() for g in seen.values()))
        assert clipped == pytest.approx(threshold)


def test_gradient_clipping_of_zero_gradients(hook_check):
    link = hook_check.make_link()
    link.cleargrads()
    seen = hook_check.apply_hook(optimizer_hooks.GradientClipping(1.), link)
    numpy.testing.assert_array_equal(seen['W'], 0)
