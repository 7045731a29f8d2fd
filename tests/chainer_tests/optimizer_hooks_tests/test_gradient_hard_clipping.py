"""Element-wise clipping of gradients
(optimizer_hooks.GradientHardClipping)."""

import numpy

from chainer import optimizer_hooks
from chainer import optimizers


def test_attributes(hook_check):
    hook_check.check_attributes(
        optimizer_hooks.GradientHardClipping(-1., 1.), True)


def test_gradient_hard_clipping(hook_check):
    link = hook_check.make_link()
    expected = {p.name: numpy.clip(p.grad, -0.3, 0.2)
                for p in link.params(False)}
    seen = hook_check.apply_hook(
        optimizer_hooks.GradientHardClipping(-0.3, 0.2), link)
    for name, grad in expected.items():
        numpy.testing.assert_array_equal(seen[name], grad)


def test_hook_changes_the_update(hook_check):
    link = hook_check.make_link()
    expected = link.W.array - 0.1 * numpy.clip(link.W.grad, -0.1, 0.1)
    opt = optimizers.SGD(lr=0.1).setup(link)
    opt.add_hook(optimizer_hooks.GradientHardClipping(-0.1, 0.1))
    opt.update()
    numpy.testing.assert_allclose(link.W.array, expected, rtol=1e-6)


def test_skips_parameters_without_arrays(hook_check):
    hook_check.check_skips_parameters_without_arrays(
        optimizer_hooks.GradientHardClipping(-1, 1))
