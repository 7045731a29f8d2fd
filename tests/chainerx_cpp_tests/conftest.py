"""Fixtures of the kernel tests.

Every comparison of the NumPy path (``use_chainerx_cpp='never'``) with the
kernels (``'always'``) names the kernels that must run under ``'always'``:
an operation runs its NumPy code where a kernel refuses a case, and a
comparison of the NumPy path with itself would pass. ``kernel_calls``
(tests/conftest.py) records them.
"""

import numpy
import pytest

import chainer
import chainerx_cpp


@pytest.fixture(autouse=True)
def _requires_kernels():
    if not chainerx_cpp.is_available():
        pytest.skip('chainerx_cpp is not built: {}'.format(
            chainerx_cpp.unavailable_reason()))


def _forward_backward(func, arrays, seed):
    # The output of func on Variables of copies of the arrays (in their
    # layouts) and the input gradients, backpropagated from a random
    # output gradient.
    xs = [chainer.Variable(a.copy(order='K')) for a in arrays]
    y = func(*xs)
    y.grad = numpy.random.RandomState(seed).uniform(
        -1, 1, y.shape).astype(y.dtype)
    y.backward()
    return y.array, [x.grad for x in xs]


@pytest.fixture
def in_both_modes(kernel_calls):
    """``in_both_modes(compute, kernels, refused=())`` returns what
    ``compute()`` gives with the kernels off, then on.

    It asserts that no kernel ran with them off and, with them on, that
    each kernel named in ``kernels`` ran (as many times as named), and
    that those in ``refused`` (no other) refused their cases; with
    ``kernels`` empty, that no kernel ran: the case is one that the
    operations leave to NumPy on purpose. ``kernel_calls`` then holds the
    kernels of the second run.
    """
    def in_both_modes(compute, kernels, refused=()):
        kernel_calls.clear()
        with chainer.using_config('use_chainerx_cpp', 'never'):
            expected = compute()
        kernel_calls.check(())
        with chainer.using_config('use_chainerx_cpp', 'always'):
            actual = compute()
        kernel_calls.check(kernels, refused)
        return expected, actual
    return in_both_modes


@pytest.fixture
def run_both(in_both_modes):
    """``run_both(func, *arrays, kernels, refused=(), seed=0)`` runs
    ``func`` on Variables of ``arrays`` (copies in their layouts) with the
    kernels off, then on, as ``in_both_modes`` does.

    ``func`` returns one Variable; it is backpropagated with the same
    random output gradient both times. Returns the output array and the
    input gradients of both runs.
    """
    def run_both(func, *arrays, kernels, refused=(), seed=0):
        return in_both_modes(
            lambda: _forward_backward(func, arrays, seed), kernels, refused)
    return run_both


@pytest.fixture
def tolerance():
    def tolerance(dtype):
        if dtype == numpy.float64:
            return {'atol': 1e-12, 'rtol': 1e-12}
        return {'atol': 1e-5, 'rtol': 1e-4}
    return tolerance
