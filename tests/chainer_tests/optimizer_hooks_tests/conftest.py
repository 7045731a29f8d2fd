"""Shared helpers of the optimizer hook tests, given to the test modules
by the fixture ``hook_check``."""

import numpy
import pytest

import chainer
from chainer import optimizers


def make_link(dtype=numpy.float32, seed=0):
    rng = numpy.random.RandomState(seed)
    link = chainer.Link()
    with link.init_scope():
        link.W = chainer.Parameter(rng.uniform(-1, 1, (3, 4)).astype(dtype))
        link.b = chainer.Parameter(rng.uniform(-1, 1, (4,)).astype(dtype))
        link.lazy = chainer.Parameter()
    # As in the original, an uninitialized parameter has no readable
    # gradient until it is cleared.
    link.lazy.cleargrad()
    link.W.grad = rng.uniform(-1, 1, (3, 4)).astype(dtype)
    link.b.grad = rng.uniform(-1, 1, (4,)).astype(dtype)
    return link


def apply_hook(hook, link, lr=0.):
    """Runs one SGD update with the hook and returns the gradients seen."""
    opt = optimizers.SGD(lr=lr).setup(link)
    opt.add_hook(hook)
    seen = {}

    def record(rule, param):
        seen[param.name] = param.grad.copy()

    for param in link.params(False):
        param.update_rule.add_hook(record, name='record')
    opt.update()
    return seen


def check_skips_parameters_without_arrays(hook):
    param = chainer.Parameter()
    param.cleargrad()
    hook(None, param)
    assert param.array is None and param.grad is None


def check_attributes(hook, call_for_each_param):
    assert hook.name == type(hook).__name__
    assert hook.timing == 'pre'
    assert getattr(hook, 'call_for_each_param', False) is \
        call_for_each_param


class _Helpers:
    make_link = staticmethod(make_link)
    apply_hook = staticmethod(apply_hook)
    check_attributes = staticmethod(check_attributes)
    check_skips_parameters_without_arrays = staticmethod(
        check_skips_parameters_without_arrays)


@pytest.fixture
def hook_check():
    """The helpers above, for the test modules of this folder."""
    return _Helpers
