"""Initializers that fill arrays with fixed values."""

import numpy

from chainer import backend
from chainer.backends import cuda
from chainer import initializer


class Identity(initializer.Initializer):
    """Fills a square matrix with a scaled identity matrix.

    Args:
        scale (float): The value of the diagonal.
        dtype: Data type of the arrays this initializer fills.
    """

    def __init__(self, scale=1.0, dtype=None):
        self.scale = scale
        super().__init__(dtype)

    def __call__(self, array):
        if self.dtype is not None:
            assert array.dtype == self.dtype
        shape = array.shape
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError('Identity matrix initialization can only be '
                             'used for 2D squared matrices.')
        xp = backend.get_array_module(array)
        array[...] = xp.identity(shape[0]) * self.scale


class _Constant(initializer.Initializer):
    """Base of the initializers that fill arrays with ``fill_value``."""

    fill_value = None

    def __init__(self, dtype=None):
        fill_value = self.fill_value
        if not (numpy.isscalar(fill_value) or isinstance(
                fill_value, (numpy.ndarray, cuda.ndarray))):
            raise ValueError(
                'fill_value must be either scalar, numpy.ndarray, '
                'cupy.ndarray or chainerx.ndarray.')
        super().__init__(dtype)

    def __call__(self, array):
        if self.dtype is not None:
            assert array.dtype == self.dtype
        xp = backend.get_array_module(array)
        fill_value = self.fill_value
        if not numpy.isscalar(fill_value):
            fill_value = backend.get_device_from_array(array).send(
                fill_value)
        array[...] = xp.asarray(fill_value)


class Constant(_Constant):
    """Fills an array with a scalar, or with an array broadcast to it.

    Args:
        fill_value (scalar or array): The value(s) to fill with.
        dtype: Data type of the arrays this initializer fills.
    """

    def __init__(self, fill_value, dtype=None):
        self.fill_value = fill_value
        super().__init__(dtype)


class Zero(_Constant):
    """Fills arrays with zeros.

    Args:
        dtype: Data type of the arrays it fills.
    """

    fill_value = 0.0


class One(_Constant):
    """Fills arrays with ones.

    Args:
        dtype: Data type of the arrays it fills.
    """

    fill_value = 1.0


class NaN(_Constant):
    """Fills arrays with NaN.

    Args:
        dtype: Data type of the arrays it fills.
    """

    fill_value = numpy.nan
