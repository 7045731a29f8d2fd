"""The CPU (NumPy) device."""

import numpy

import chainer.backends
from chainer import _backend


class CpuDevice(_backend.Device):
    """Device of the CPU, computing with NumPy.

    All instances are equal; its name is ``'@numpy'``.
    """

    name = '@numpy'
    xp = numpy
    supported_array_types = (numpy.ndarray,)

    __hash__ = _backend.Device.__hash__

    @staticmethod
    def from_array(array):
        """Returns a :class:`CpuDevice` if ``array`` is a NumPy array.

        Args:
            array: Any object.

        Returns:
            A :class:`CpuDevice` for a ``numpy.ndarray``, ``None`` otherwise
            (NumPy scalars included).
        """
        if isinstance(array, numpy.ndarray):
            return _CPU_DEVICE
        return None

    def __eq__(self, other):
        return isinstance(other, CpuDevice)

    def __repr__(self):
        return f'<{type(self).__name__} (numpy)>'

    def send_array(self, array):
        if isinstance(array, numpy.ndarray):
            return array
        return _array_to_cpu(array)

    def is_array_supported(self, array):
        return isinstance(array, numpy.ndarray)


_CPU_DEVICE = CpuDevice()


def _to_cpu(array):
    """Converts an array, or a list or tuple of arrays, to NumPy."""
    return _backend._convert_arrays(array, _array_to_cpu)


def _array_to_cpu(array):
    """Converts one array to a ``numpy.ndarray``.

    NumPy arrays are returned as they are, CuPy arrays are copied to the
    host, scalars become 0-dimensional arrays and ``None`` stays ``None``.

    Raises:
        TypeError: If ``array`` is of any other type.
    """
    if array is None or isinstance(array, numpy.ndarray):
        return array
    cuda = chainer.backends.cuda
    if isinstance(array, cuda.ndarray):
        with array.device:
            return array.get()
    if numpy.isscalar(array):
        return numpy.asarray(array)
    raise TypeError(
        'Array cannot be converted into an numpy.ndarray'
        f'\nActual type: {type(array)}.')
