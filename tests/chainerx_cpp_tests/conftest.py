import numpy
import pytest

import chainer
from chainer import _kernels
import chainerx_cpp

@pytest.fixture(autouse=True)
def _requires_kernels():
    if not chainerx_cpp.is_available():
        pytest.skip('chainerx_cpp is not built: {}'.format(
            chainerx_cpp.unavailable_reason()))


def _run_both(func, *arrays, seed=0):
    """Runs ``func`` on Variables of ``arrays`` (copies in their layouts)
    with the kernels off, then on.

    ``func`` returns one Variable; it is backpropagated with the same
    random output gradient both times. Returns the output arrays and the
    input gradients of both runs.
    """
    results = []
    for mode in ('never', 'always'):
        with chainer.using_config('use_chainerx_cpp', mode):
            xs = [chainer.Variable(a.copy(order='K')) for a in arrays]
            y = func(*xs)
            y.grad = numpy.random.RandomState(seed).uniform(
                -1, 1, y.shape).astype(y.dtype)
            y.backward()
            results.append((y.array, [x.grad for x in xs]))
    return results


def _in_both_modes(compute):
    """Returns what ``compute()`` gives with the kernels off, then on."""
    with chainer.using_config('use_chainerx_cpp', 'never'):
        expected = compute()
    with chainer.using_config('use_chainerx_cpp', 'always'):
        actual = compute()
    return expected, actual


def _tolerance(dtype):
    if dtype == numpy.float64:
        return {'atol': 1e-12, 'rtol': 1e-12}
    return {'atol': 1e-5, 'rtol': 1e-4}


@pytest.fixture
def run_both():
    return _run_both


@pytest.fixture
def in_both_modes():
    return _in_both_modes


@pytest.fixture
def tolerance():
    return _tolerance


class _RecordingKernels:
    # Stands for the kernel module and records the kernels called.

    def __init__(self, module, calls):
        self._module = module
        self._calls = calls

    def __getattr__(self, name):
        kernel = getattr(self._module, name)
        if not callable(kernel) or isinstance(kernel, type):
            return kernel

        def record(*args, **kwargs):
            self._calls.append(name)
            return kernel(*args, **kwargs)
        return record


@pytest.fixture
def kernel_calls(monkeypatch):
    """The names of the kernels the operations call during the test."""
    calls = []
    if _kernels._module is not None:
        monkeypatch.setattr(
            _kernels, '_module', _RecordingKernels(_kernels._module, calls))
    return calls
