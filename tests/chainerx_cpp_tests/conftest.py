"""Fixtures of the chainerx_cpp kernel tests."""

import pytest

from chainer import _kernels


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
