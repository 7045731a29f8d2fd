"""The ChainerX device and conversions, as Chainer 7.8 places them.

ChainerX is not available here (:func:`chainerx.is_available` is
``False``): a :class:`ChainerxDevice` cannot be made, no array converts to
ChainerX, and NumPy and CuPy arrays convert from it as they are. The names
are those of Chainer 7.8's ``chainer.backends._chainerx``, which
:mod:`chainer.backend` re-exports.
"""

import numpy

import chainerx
from chainer import _backend
from chainer._backend import Device
from chainer.backends import cuda


_CHAINERX_UNAVAILABLE = (
    'ChainerX is not available (chainerx.is_available() is False).')


class ChainerxDevice(Device):
    """Device of ChainerX, which is not available here.

    Creating one raises ``RuntimeError``; :meth:`from_array` always returns
    ``None``.
    """

    xp = chainerx
    supported_array_types = (chainerx.ndarray,)

    __hash__ = Device.__hash__

    def __init__(self, device):
        raise RuntimeError(_CHAINERX_UNAVAILABLE)

    @staticmethod
    def from_array(array):
        """Returns ``None``: no array is a ChainerX array here."""

    @staticmethod
    def from_fallback_device(device):
        """Raises ``RuntimeError``: ChainerX is not available."""
        raise RuntimeError(_CHAINERX_UNAVAILABLE)


def to_chx(array):
    """Converts arrays to ChainerX, which is not available here.

    Args:
        array: An array, ``None``, or a list or tuple of them.

    Returns:
        ``None`` (or a container of ``None``) when given only ``None``.

    Raises:
        RuntimeError: For any array, as ChainerX is not available.
    """
    return _backend._convert_arrays(array, _array_to_chainerx)


def _array_to_chainerx(array):
    if array is not None:
        raise RuntimeError(_CHAINERX_UNAVAILABLE)


def from_chx(array):
    """Converts ChainerX arrays to NumPy or CuPy ones.

    As no ChainerX array exists here, NumPy and CuPy arrays (and ``None``)
    are returned as they are.

    Args:
        array: An array, ``None``, or a list or tuple of them.

    Raises:
        TypeError: If an item is not an array.
    """
    return _backend._convert_arrays(array, _array_from_chainerx)


def _array_from_chainerx(array):
    if array is None or isinstance(array, (numpy.ndarray, cuda.ndarray)):
        return array
    raise TypeError(
        'Tried to convert to a non-ChainerX array from an invalid type: '
        f'{type(array)}')
