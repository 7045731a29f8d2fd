"""Pytest marks that say what a test needs: a GPU, cuDNN, time, ...

``gpu`` and ``multi_gpu(n)`` also skip the test when fewer GPUs than
needed are usable: CuPy missing, no CUDA device, or a limit set by the
``CHAINER_TEST_GPU_LIMIT`` environment variable.
"""

import functools
import os

try:
    import pytest
    _error = None
except ImportError as e:
    _error = e


def is_available():
    """Returns ``True`` if pytest, needed by these marks, is installed."""
    return _error is None


def check_available():
    """Raises :class:`RuntimeError` if pytest is not installed."""
    if _error is not None:
        raise RuntimeError(
            '{} is not available.\nReason: {}: {}'.format(
                __name__, type(_error).__name__, _error))


def get_error():
    """Returns the error raised when importing pytest, or ``None``."""
    return _error


_gpu_limit = int(os.getenv('CHAINER_TEST_GPU_LIMIT', '-1'))


@functools.lru_cache(maxsize=None)
def _cuda_device_count():
    # The number of usable CUDA devices; 0 when CuPy or a GPU is missing.
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


def _gpu_skip_reason(gpu_num):
    # Why a test needing ``gpu_num`` GPUs cannot run here, or None.
    if 0 <= _gpu_limit < gpu_num:
        return '{} GPUs required'.format(gpu_num)
    count = _cuda_device_count()
    if count < gpu_num:
        if count == 0:
            return 'CuPy or a CUDA device is not available'
        return '{} GPUs required ({} available)'.format(gpu_num, count)
    return None


def _mark(name):
    def mark(*args, **kwargs):
        check_available()
        return getattr(pytest.mark, name)(*args, **kwargs)
    mark.__name__ = name
    mark.__doc__ = 'Marks a test with ``pytest.mark.{}``.'.format(name)
    return mark


chainerx = _mark('chainerx')
cudnn = _mark('cudnn')
ideep = _mark('ideep')
slow = _mark('slow')


def multi_gpu(gpu_num):
    """Decorator to declare that a test needs ``gpu_num`` GPUs.

    The test (a function or a class) is marked with ``pytest.mark.gpu``
    (and ``pytest.mark.multi_gpu(gpu_num)`` if ``gpu_num > 1``) and
    skipped when fewer than ``gpu_num`` GPUs are usable, or when the
    ``CHAINER_TEST_GPU_LIMIT`` environment variable is set to a value
    between 0 and ``gpu_num - 1``.

    Args:
        gpu_num (int): The number of GPUs the test needs.

    Returns:
        The decorator.
    """
    check_available()

    def deco(f):
        reason = _gpu_skip_reason(gpu_num)
        f = pytest.mark.skipif(reason is not None, reason=reason or '')(f)
        if gpu_num > 1:
            f = pytest.mark.multi_gpu(gpu_num)(f)
        return pytest.mark.gpu(f)
    return deco


def gpu(f):
    """Decorator to declare that a test needs one GPU.

    Same as ``multi_gpu(1)``.
    """
    return multi_gpu(1)(f)
