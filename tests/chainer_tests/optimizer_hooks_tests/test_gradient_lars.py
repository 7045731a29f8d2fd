"""Layer-wise adaptive rate scaling (optimizer_hooks.GradientLARS)."""

import numpy
import pytest

from chainer import optimizer_hooks


def test_attributes(hook_check):
    hook_check.check_attributes(optimizer_hooks.GradientLARS(), True)


@pytest.mark.parametrize('threshold', [1e-2, 1e3])
def test_gradient_lars(hook_check, threshold):
    link = hook_check.make_link(numpy.float64)
    wd, eps = 0.01, 1e-9
    expected = {}
    for p in link.params(False):
        p_norm = numpy.linalg.norm(p.array)
        g_norm = numpy.linalg.norm(p.grad)
        rate = p_norm / (eps + g_norm + wd * p_norm) \
            if p_norm > threshold else 1.
        expected[p.name] = (p.grad + wd * p.array) * rate
    seen = hook_check.apply_hook(
        optimizer_hooks.GradientLARS(threshold=threshold, weight_decay=wd,
                                     eps=eps), link)
    for name, grad in expected.items():
        numpy.testing.assert_allclose(seen[name], grad, rtol=1e-12)


def test_skips_parameters_without_arrays(hook_check):
    hook_check.check_skips_parameters_without_arrays(
        optimizer_hooks.GradientLARS())
