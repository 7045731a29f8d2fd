"""Deterministic inputs for testing converters."""

import numpy as np


def shaped_range(*shape, dtype=np.float32):
    """Returns ``0, 1, 2, ...`` (as int) in the given shape."""
    return np.arange(int(np.prod(shape))).reshape(shape)


def _increasing(*shape, dtype=np.float32, negative=True, bias=0):
    r = shaped_range(*shape)
    if negative:
        r = r - r.size // 2
    if dtype in (np.float32, np.float64):
        r = r * 0.5
    r = r + bias
    return r.astype(dtype)


def increasing(*shape, dtype=np.float32):
    """Returns a monotonically increasing array, half negative.

    For float dtypes the step is 0.5; the values include zero.

    >>> increasing(3, 4)
    array([[-3. , -2.5, -2. , -1.5],
           [-1. , -0.5,  0. ,  0.5],
           [ 1. ,  1.5,  2. ,  2.5]], dtype=float32)
    """
    return _increasing(*shape, dtype=dtype)


def nonzero_increasing(*shape, dtype=np.float32, bias=1e-7):
    """Like :func:`increasing`, shifted by ``bias`` so that no value is 0."""
    assert dtype in (np.float32, np.float64)
    return _increasing(*shape, dtype=dtype, bias=bias)


def positive_increasing(*shape, dtype=np.float32, bias=1e-7):
    """Returns ``bias, bias + 0.5, ...``: positive increasing values."""
    return _increasing(*shape, dtype=dtype, negative=False, bias=bias)
