"""Helpers to compute half-precision functions in single precision."""

import functools

import numpy


def _fp16_mixed_precision_helper(fn):
    """Runs a ``forward`` method in float32 when its inputs are float16.

    float16 inputs are cast to float32 before ``fn`` runs. When no input is
    a floating-point array other than float16, float32 outputs are cast
    back to float16; ``None`` outputs and other dtypes pass through.
    float32 and float64 inputs are given to ``fn`` unchanged.

    Args:
        fn: A ``forward(self, inputs)`` method returning a tuple of arrays.

    Returns:
        The wrapped method.
    """
    @functools.wraps(fn)
    def wrapper(self, in_data):
        half_only = all(x.dtype.kind != 'f' or x.dtype == numpy.float16
                        for x in in_data)
        in_data = tuple(
            x.astype(numpy.float32) if x.dtype == numpy.float16 else x
            for x in in_data)
        out_data = fn(self, in_data)
        if half_only:
            out_data = tuple(
                y.astype(numpy.float16)
                if y is not None and y.dtype == numpy.float32 else y
                for y in out_data)
        return out_data
    return wrapper
