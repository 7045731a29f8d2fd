"""Devices and array modules: the public entry points of the backends.

:func:`get_array_module` picks NumPy or CuPy for the arguments of an
operation, :func:`get_device` turns a device specifier into a
:class:`Device`, and :func:`using_device` makes a device current.
"""

import numpy

from chainer._backend import Device
from chainer.backends import _cpu, cuda, intel64  # noqa: F401
from chainer.backends._chainerx import ChainerxDevice  # noqa: F401
from chainer.backends._chainerx import from_chx  # noqa: F401
from chainer.backends._chainerx import to_chx  # noqa: F401
from chainer.backends._cpu import CpuDevice
from chainer.backends.cuda import GpuDevice
from chainer.backends.intel64 import Intel64Device

# The array types a Variable can hold: NumPy's, and CuPy's when CuPy works.
_ARRAY_TYPES = (
    (numpy.ndarray, cuda.ndarray) if cuda.available else (numpy.ndarray,))


def _contains_nan(x):
    """Tells whether a NumPy or CuPy array has a NaN.

    Args:
        x: The array.

    Returns:
        bool: ``True`` if a floating-point or complex ``x`` has a NaN.
    """
    if x.dtype.kind not in ('f', 'c'):
        return False
    device = get_device_from_array(x)
    with using_device(device):
        return device.xp.isnan(x).any()


def copyto(dst, src):
    """Copies the elements of ``src`` into the array ``dst``.

    The arrays may live on different devices (CPU or GPUs); ``src`` is
    broadcast to the shape of ``dst`` and cast under the ``'same_kind'``
    rule.

    Args:
        dst (numpy.ndarray or cupy.ndarray): The destination.
        src: The source: a NumPy or CuPy array; for a NumPy destination,
            also anything NumPy accepts (scalars, lists).

    Raises:
        TypeError: If ``dst`` or ``src`` is not an array.
    """
    if isinstance(dst, numpy.ndarray):
        numpy.copyto(dst, _cpu._to_cpu(src))
    elif isinstance(dst, cuda.ndarray):
        _copyto_gpu(dst, src)
    else:
        raise TypeError(
            f'cannot copy to non-array object of type {type(dst)}')


def _copyto_gpu(dst, src):
    with dst.device:
        if isinstance(src, cuda.ndarray):
            cuda._copy_into(dst, src)
        elif isinstance(src, numpy.ndarray):
            if (src.dtype == dst.dtype and src.shape == dst.shape
                    and (dst.flags.c_contiguous or dst.flags.f_contiguous)):
                dst.set(src)
            else:
                cuda.cupy.copyto(dst, cuda.cupy.asarray(src))
        else:
            raise TypeError(
                f'cannot copy from non-array object of type {type(src)}')


def _guess_device_from_array_module(xp):
    """Picks the device that an array module most likely means.

    CuPy gives the current GPU; anything else gives the CPU.
    """
    if cuda.available and xp is cuda.cupy:
        return GpuDevice(cuda.Device())
    return CpuDevice()


def get_device(device_spec):
    """Returns the device that a specifier designates.

    Args:
        device_spec: One of:

            * a :class:`Device`, returned as is;
            * ``'@numpy'``, or a negative integer (``-1``), for the CPU;
            * ``'@cupy:N'``, a non-negative integer ``N`` or a
              ``cupy.cuda.Device``, for GPU ``N``;
            * a string holding an integer, read as that integer;
            * ``'@intel64'`` (raises ``RuntimeError``: iDeep is not
              available);
            * any other string without ``'@'`` is a ChainerX specifier
              (``'native:0'``, ``'cuda:0'``) and raises ``RuntimeError``, as
              ChainerX is not available.

    Returns:
        Device: The device.

    Raises:
        TypeError: If ``device_spec`` is of an unsupported type.
        ValueError: If a string starting with ``'@'`` is malformed.
        RuntimeError: If the backend the specifier needs is not available.
    """
    if isinstance(device_spec, Device):
        return device_spec
    if isinstance(device_spec, cuda._integer_types):
        return _get_device_cupy_or_numpy(device_spec)
    if cuda.available and isinstance(device_spec, cuda.Device):
        return GpuDevice(device_spec)
    if isinstance(device_spec, str):
        return _parse_device_string(device_spec)
    raise TypeError(
        'Device specifier must be a backend.Device, cuda.Device,'
        f' chainerx.Device, integer or a string. Actual: {type(device_spec)}')


def _parse_device_string(device_spec):
    if device_spec == '@numpy':
        return CpuDevice()
    if not device_spec.startswith('@'):
        try:
            device_id = int(device_spec)
        except ValueError:
            pass
        else:
            return _get_device_cupy_or_numpy(device_id)
        raise RuntimeError(
            f"Tried to parse ChainerX device specifier '{device_spec}', "
            'but ChainerX is not available. '
            "Note that device specifiers without '@' prefix are "
            'assumed to be ChainerX device specifiers.')
    module_name, colon, precise_spec = device_spec[1:].partition(':')
    if module_name == 'cupy' and colon:
        return GpuDevice.from_device_id(int(precise_spec))
    if module_name == 'intel64' and not colon:
        return Intel64Device()
    raise ValueError(
        "Device specifiers starting with '@' must be followed by"
        ' a module name and depending on the module, module specific'
        f' precise device specifiers. Actual: {device_spec}')


def _get_device_cupy_or_numpy(device_spec):
    # The legacy integer form: negative for the CPU, N >= 0 for GPU N.
    if device_spec >= 0:
        return GpuDevice.from_device_id(device_spec)
    return CpuDevice()


def using_device(device_spec):
    """Gives a context manager that makes a device current inside it.

    Args:
        device_spec: A device specifier, as for :func:`get_device`.

    Example:
        >>> with chainer.using_device('@numpy'):
        ...     pass
    """
    return get_device(device_spec).create_context()


def get_array_module(*args):
    """Returns :mod:`numpy` or :mod:`cupy`, whichever fits the arguments.

    Arguments of any type may be given; Variables count as the arrays they
    hold. Without CuPy the answer is always :mod:`numpy`.

    Args:
        args: Arrays, Variables or other values.

    Returns:
        module: :mod:`cupy` if any argument is (or holds) a CuPy array,
        :mod:`numpy` otherwise.
    """
    if cuda.available:
        # NumPy arrays are the common case: they need no look at CuPy.
        for arg in args:
            if not isinstance(arg, numpy.ndarray):
                return cuda._cupy_array_module(args)
    return numpy


def get_device_from_array(*arrays):
    """Returns the device of the first non-NumPy array among ``arrays``.

    Variables are not recognized: pass ``variable.array``.

    Args:
        arrays: Arrays (or other values, which are skipped).

    Returns:
        Device: A :class:`GpuDevice` for the first CuPy array, otherwise a
        :class:`CpuDevice`.
    """
    if cuda.available:
        for array in arrays:
            if isinstance(array, cuda.ndarray):
                return GpuDevice(array.device)
    return _cpu._CPU_DEVICE
