"""The L1 regularization hook (optimizer_hooks.Lasso)."""

import numpy

from chainer import optimizer_hooks


def test_attributes(hook_check):
    hook_check.check_attributes(optimizer_hooks.Lasso(0.1), True)


def test_lasso(hook_check):
    link = hook_check.make_link()
    link.W.array[0, 0] = 0.
    expected = {p.name: p.grad + 0.1 * numpy.sign(p.array)
                for p in link.params(False)}
    seen = hook_check.apply_hook(optimizer_hooks.Lasso(0.1), link)
    for name, grad in expected.items():
        numpy.testing.assert_allclose(seen[name], grad, rtol=1e-6)
    assert seen['W'][0, 0] == link.W.grad[0, 0]


def test_skips_parameters_without_arrays(hook_check):
    hook_check.check_skips_parameters_without_arrays(
        optimizer_hooks.Lasso(0.1))
