"""GPU support through CuPy: devices, array transfer and kernels.

When CuPy can be imported, the following CuPy names are re-exported here:

=====================================  =================================
 name here                              CuPy name
=====================================  =================================
 ``chainer.backends.cuda.cupy``         :mod:`cupy`
 ``chainer.backends.cuda.cupyx``        :mod:`cupyx`
 ``chainer.backends.cuda.ndarray``      :class:`cupy.ndarray`
 ``chainer.backends.cuda.Device``       :class:`cupy.cuda.Device`
 ``chainer.backends.cuda.Event``        :class:`cupy.cuda.Event`
 ``chainer.backends.cuda.Stream``       :class:`cupy.cuda.Stream`
 ``chainer.backends.cuda.cudnn``        :mod:`cupyx.cudnn`
=====================================  =================================

Without CuPy, :data:`available` is ``False``, ``cupy`` is a sentinel object
that no array module is, ``cupyx`` and ``cudnn`` are ``None``, ``ndarray``,
``Device``, ``Event`` and ``Stream`` are placeholder classes (no real
object is an instance of them), every CPU path keeps
working, and any GPU operation raises ``RuntimeError`` from
:func:`check_cuda_available`.

The environment variable ``CHAINER_CUDNN=0`` disables cuDNN.
"""

import functools
import itertools
import os
import threading
import warnings

import numpy

from chainer import _backend
from chainer.backends import _cpu
from chainer.configuration import config

available = False
cudnn_enabled = False
cudnn = None
libcudnn = None
_cupy_major = 0
_cudnn_version = -1
_cudnn_disabled_by_user = False
_resolution_error = None

try:
    import cupy
    import cupyx
    from cupy import ndarray
    from cupy._util import PerformanceWarning as _PerformanceWarning
    from cupy.cuda import Device, Event, Stream

    available = True
except Exception as e:  # a broken CuPy leaves the CPU usable
    # A sentinel no module is, so ``xp is cuda.cupy`` stays valid.
    cupy = object()
    cupyx = None
    _resolution_error = e

    class ndarray:
        """Placeholder of ``cupy.ndarray``; nothing is an instance of it."""

    class Device:
        """Placeholder of ``cupy.cuda.Device`` used without CuPy."""

        def __init__(self, device=None):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *args):
            pass

    class Event:
        """Placeholder of ``cupy.cuda.Event`` used without CuPy."""

    class Stream:
        """Placeholder of ``cupy.cuda.Stream`` used without CuPy."""

    class _PerformanceWarning(Warning):
        """Stands for ``cupy._util.PerformanceWarning``."""


def _import_cudnn():
    # Returns the high-level cuDNN module and the low-level binding.
    try:
        import cupyx.cudnn as high_level
    except ImportError:
        import cupy.cudnn as high_level
    try:
        from cupy_backends.cuda.libs import cudnn as low_level
    except ImportError:
        from cupy.cuda import cudnn as low_level
    return high_level, low_level, low_level.getVersion()


if available:
    _cupy_major = int(cupy.__version__.split('.')[0])
    _cudnn_disabled_by_user = int(os.environ.get('CHAINER_CUDNN', '1')) == 0
    try:
        cudnn, libcudnn, _found_version = _import_cudnn()
    except Exception as e:  # CuPy >= 14, or no libcudnn
        _resolution_error = e
    else:
        cudnn_enabled = not _cudnn_disabled_by_user
        if cudnn_enabled:
            _cudnn_version = _found_version

    memory_pool = cupy.get_default_memory_pool()
    pinned_memory_pool = cupy.get_default_pinned_memory_pool()

_cudnn_warned = False

_integer_types = (int, numpy.integer)

_variable_type = None


def _get_variable_type():
    # chainer.variable is a layer above; it is resolved once, on first use.
    global _variable_type
    if _variable_type is None:
        from chainer import variable
        _variable_type = variable.Variable
    return _variable_type


def check_cuda_available():
    """Checks that CuPy (and hence CUDA) can be used.

    Nothing happens when it can. Warns once if cuDNN is missing from a CuPy
    version that supports it.

    Raises:
        RuntimeError: If CuPy cannot be imported. The message gives the
            import error and, if CuPy is missing, tells to install it.
    """
    global _cudnn_warned
    if not available:
        msg = ('CUDA environment is not correctly set up\n'
               '(see https://github.com/chainer/chainer#installation).')
        msg += str(_resolution_error)
        if isinstance(_resolution_error, ModuleNotFoundError):
            msg += ('\nInstall CuPy (for example `pip install cupy-cuda12x`)'
                    ' to use GPUs.')
        raise RuntimeError(msg)
    if (not cudnn_enabled and not _cudnn_disabled_by_user
            and _cupy_major < 14 and not _cudnn_warned):
        _cudnn_warned = True
        warnings.warn(
            'cuDNN is not enabled.\n'
            'Please install cuDNN for CuPy '
            '(see https://docs.cupy.dev/en/stable/install.html).')


class DummyDeviceType:
    """A device object that does nothing, standing for the CPU.

    It has the interface of ``cupy.cuda.Device``: ``id`` is ``-1``, ``use``
    and ``synchronize`` do nothing, and it is a context manager that does
    nothing. The single instance is :data:`DummyDevice`.
    """

    id = -1

    def __int__(self):
        return -1

    def __enter__(self):
        return self

    def __exit__(self, *args):
        pass

    def use(self):
        """Does nothing."""

    def synchronize(self):
        """Does nothing."""

    def __eq__(self, other):
        return isinstance(other, DummyDeviceType)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(DummyDeviceType)


DummyDevice = DummyDeviceType()


class GpuDevice(_backend.Device):
    """Device of a GPU, computing with CuPy.

    Args:
        device (cupy.cuda.Device): The CUDA device.

    Attributes:
        device (cupy.cuda.Device): The CUDA device.
    """

    xp = cupy
    supported_array_types = (ndarray,)

    __hash__ = _backend.Device.__hash__

    def __init__(self, device):
        check_cuda_available()
        if not isinstance(device, Device):
            raise TypeError(
                'GpuDevice must be created from a cupy.cuda.Device. '
                f'Actual: {type(device)}')
        self.device = device

    @staticmethod
    def from_device_id(device_id):
        """Returns the :class:`GpuDevice` of a CUDA device ID.

        Args:
            device_id (int): A non-negative device ID.

        Raises:
            ValueError: If ``device_id`` is not a non-negative integer.
        """
        check_cuda_available()
        if not (isinstance(device_id, _integer_types) and device_id >= 0):
            raise ValueError(f'Invalid CUDA device ID: {device_id}')
        return GpuDevice(Device(int(device_id)))

    @staticmethod
    def from_array(array):
        """Returns the :class:`GpuDevice` of a CuPy array, else ``None``."""
        if isinstance(array, ndarray):
            return GpuDevice(array.device)
        return None

    @property
    def name(self):
        return f'@cupy:{self.device.id}'

    def __eq__(self, other):
        return isinstance(other, GpuDevice) and other.device == self.device

    def __repr__(self):
        return f'<{type(self).__name__} (cupy):{self.device.id}>'

    def create_context(self):
        # A fresh cupy.cuda.Device: one instance must not be entered from
        # several threads.
        return Device(self.device.id)

    def send_array(self, array):
        return _array_to_gpu(array, self.device, None)

    def use(self):
        self.device.use()

    def is_array_supported(self, array):
        return isinstance(array, ndarray) and self.device == array.device


def get_device_from_id(device_id):
    """Returns the CUDA device of an ID.

    Args:
        device_id (int or None): The device ID.

    Returns:
        ``cupy.cuda.Device`` for a non-negative ID, :data:`DummyDevice` for
        ``None`` or a negative ID.
    """
    if device_id is not None and device_id >= 0:
        check_cuda_available()
        return Device(int(device_id))
    return DummyDevice


def get_device_from_array(*arrays):
    """Returns the CUDA device of the first CuPy array among ``arrays``.

    Only ``cupy.ndarray`` arguments are recognized (not Variables).

    Returns:
        ``cupy.cuda.Device``, or :data:`DummyDevice` if there is no CuPy
        array.
    """
    for array in arrays:
        if isinstance(array, ndarray):
            return array.device
    return DummyDevice


def get_device(*args):
    """Returns a CUDA device from a device, an integer ID or an array.

    .. deprecated:: v3.0.0
        Use :func:`get_device_from_id` or :func:`get_device_from_array`.

    Args:
        args: The first integer, CuPy array or ``cupy.cuda.Device`` among
            them selects the device.

    Returns:
        ``cupy.cuda.Device``, or :data:`DummyDevice` if no argument selects
        a GPU.
    """
    warnings.warn(
        'get_device is deprecated. Please use get_device_from_id or '
        'get_device_from_array instead.', DeprecationWarning)
    return _get_cuda_device(*args)


def _get_cuda_device(*args):
    for arg in args:
        if type(arg) is not bool and isinstance(arg, _integer_types):
            check_cuda_available()
            return Device(arg)
        if isinstance(arg, ndarray):
            return arg.device
        if available and isinstance(arg, Device):
            return arg
    return DummyDevice


def _get_device_or_current(device):
    # None -> the current device; cupy.cuda.Device and GpuDevice -> their
    # CUDA device; non-negative integer -> that device.
    if device is None:
        return Device()
    if isinstance(device, Device):
        return device
    if isinstance(device, GpuDevice):
        return device.device
    if not (isinstance(device, _integer_types) and device >= 0):
        raise ValueError(f'Invalid CUDA device specifier: {device}')
    return Device(int(device))


def to_gpu(array, device=None, stream=None):
    """Copies an array, or a list or tuple of arrays, to a GPU.

    Args:
        array: A NumPy or CuPy array, a NumPy scalar, ``None``, or a list or
            tuple of them.
        device: A CUDA device specifier: ``None`` or :data:`DummyDevice` for
            the current device, a device ID, or a ``cupy.cuda.Device``.
        stream (cupy.cuda.Stream): *(deprecated)* If given, the copy runs on
            this stream.

    Returns:
        ``cupy.ndarray``, or a list or tuple of them. Arrays already on the
        device are returned as they are; ``None`` stays ``None``.

    Raises:
        RuntimeError: If CuPy is not available.
    """
    if stream is not None:
        warnings.warn(
            'The stream option is deprecated in chainer.backends.cuda.to_gpu. '
            'Please remove it.', DeprecationWarning)
    check_cuda_available()
    if device is DummyDevice:
        device = Device()
    else:
        device = _get_device_or_current(device)
    return _backend._convert_arrays(
        array, lambda arr: _array_to_gpu(arr, device, stream))


def _array_to_gpu(array, device, stream):
    if array is None:
        return None
    if isinstance(array, (numpy.number, numpy.bool_)):
        array = numpy.asarray(array)
    if isinstance(array, ndarray):
        if array.device == device:
            return array
        from_host = False
    elif isinstance(array, numpy.ndarray):
        from_host = True
    else:
        raise TypeError(
            'The array sent to gpu must be an array or a NumPy scalar.'
            f'\nActual type: {type(array)}.')
    with device:
        if stream is None:
            return _copy_to_current_device(array, from_host)
        with stream:
            return _copy_to_current_device(array, from_host)


def _copy_to_current_device(array, from_host):
    if from_host:
        return cupy.asarray(array)
    return cupy.array(array, copy=True)


def to_cpu(array, stream=None):
    """Copies an array, or a list or tuple of arrays, to the host.

    Args:
        array: A NumPy or CuPy array, a scalar, ``None``, or a list or tuple
            of them.
        stream (cupy.cuda.Stream): The CUDA stream of the copy.

    Returns:
        ``numpy.ndarray``, or a list or tuple of them. NumPy arrays are
        returned as they are, scalars become 0-dimensional arrays and
        ``None`` stays ``None``.
    """
    return _backend._convert_arrays(
        array, lambda arr: _array_to_cpu(arr, stream))


def _array_to_cpu(array, stream):
    if isinstance(array, ndarray):
        check_cuda_available()
        with array.device:
            return array.get(stream)
    return _cpu._array_to_cpu(array)


def copy(array, out=None, out_device=None, stream=None):
    """Copies a CuPy array, possibly to another device.

    Args:
        array (cupy.ndarray): The array to copy.
        out (cupy.ndarray): The destination. If given, ``out_device`` is
            ignored.
        out_device: The device of the new array, as accepted by
            :func:`get_device` (or a :class:`GpuDevice`); defaults to the
            device of ``array``.
        stream (cupy.cuda.Stream): The CUDA stream of the copy.

    Returns:
        cupy.ndarray: The copy (``out`` when given).
    """
    check_cuda_available()
    if out is None:
        if out_device is None:
            target = array.device
        elif isinstance(out_device, GpuDevice):
            target = out_device.device
        else:
            target = _get_cuda_device(out_device)
        with target:
            out = cupy.empty_like(array)
    with out.device:
        if stream is None:
            _copy_into(out, array)
        else:
            with stream:
                _copy_into(out, array)
    return out


def _copy_into(out, array):
    if array.device != out.device:
        array = cupy.array(array, copy=True)
    cupy.copyto(out, array)


def memoize(for_each_device=False):
    """Makes a function memoize its results, like :func:`cupy.memoize`.

    Usable at import time even without CuPy, in which case the decorated
    function is simply called each time (no memoization at all).

    Args:
        for_each_device (bool): Whether to keep one result per device.
    """
    if available:
        return cupy.memoize(for_each_device)

    def decorator(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            return f(*args, **kwargs)
        return wrapper
    return decorator


def clear_memo():
    """Clears the results memoized by :func:`memoize` (no-op without CuPy).
    """
    if available:
        cupy.clear_memo()


@memoize()
def elementwise(in_params, out_params, operation, name, **kwargs):
    """Creates a memoized :class:`cupy.ElementwiseKernel`.

    The arguments are those of :class:`cupy.ElementwiseKernel`; ``name`` is
    required.

    Raises:
        RuntimeError: If CuPy is not available.
    """
    check_cuda_available()
    return cupy.ElementwiseKernel(
        in_params, out_params, operation, name, **kwargs)


@memoize()
def reduce(in_params, out_params, map_expr, reduce_expr, post_map_expr,
           identity, name, **kwargs):
    """Creates a memoized :class:`cupy.ReductionKernel`.

    The arguments are those of :class:`cupy.ReductionKernel`; ``name`` is
    required.

    Raises:
        RuntimeError: If CuPy is not available.
    """
    check_cuda_available()
    return cupy.ReductionKernel(
        in_params, out_params, map_expr, reduce_expr, post_map_expr,
        identity, name, **kwargs)


@memoize()
def raw(code, name, *args, **kwargs):
    """Creates a memoized :class:`cupy.RawKernel`.

    Raises:
        RuntimeError: If CuPy is not available.
    """
    check_cuda_available()
    return cupy.RawKernel(code, name, *args, **kwargs)


def get_array_module(*args):
    """Returns :mod:`numpy` or :mod:`cupy`, whichever fits the arguments.

    .. deprecated:: v5.0.0
        Use :func:`chainer.backend.get_array_module`.

    Variables count as the arrays they hold.
    """
    if not available:
        return numpy
    return _cupy_array_module(args)


def _cupy_array_module(args):
    variable_type = _variable_type or _get_variable_type()
    return cupy.get_array_module(*[
        arg.array if isinstance(arg, variable_type) else arg
        for arg in args])


def get_max_workspace_size():
    """Returns the cuDNN workspace size limit (``0`` without cuDNN)."""
    if cudnn_enabled:
        return cudnn.get_max_workspace_size()
    return 0


def set_max_workspace_size(size):
    """Sets the cuDNN workspace size limit (no-op without cuDNN).

    Args:
        size (int): The size in bytes.
    """
    if cudnn_enabled:
        cudnn.set_max_workspace_size(size)


def fuse(*args, **kwargs):
    """Fuses a function into one kernel with :func:`cupy.fuse`.

    Without CuPy the function is returned unchanged, whether used as
    ``@fuse`` or ``@fuse(...)``.
    """
    if available:
        return cupy.fuse(*args, **kwargs)
    if len(args) == 1 and not kwargs and callable(args[0]):
        return args[0]
    return lambda f: f


_SHOULD_USE_CUDNN = {
    '==always': {'always': True, 'auto': False, 'never': False},
    '>=auto': {'always': True, 'auto': True, 'never': False},
}


def should_use_cudnn(level, lowest_version=0):
    """Tells whether a function should call cuDNN.

    The answer depends on ``chainer.config.use_cudnn``, on whether cuDNN is
    enabled (fixed at import) and on its version.

    Args:
        level (str): ``'==always'`` (only when ``use_cudnn`` is
            ``'always'``) or ``'>=auto'`` (when it is ``'always'`` or
            ``'auto'``).
        lowest_version (int): The lowest cuDNN version required.

    Returns:
        bool: ``True`` if cuDNN should be used.

    Raises:
        ValueError: If ``level`` or the configuration is invalid.
    """
    if _cudnn_version < lowest_version:
        return False
    if level not in _SHOULD_USE_CUDNN:
        raise ValueError(f'invalid cuDNN use level: {level!r} '
                         '(must be either of "==always" or ">=auto")')
    flags = _SHOULD_USE_CUDNN[level]
    use_cudnn = config.use_cudnn
    if use_cudnn not in flags:
        raise ValueError(f'invalid use_cudnn configuration: {use_cudnn!r} '
                         '(must be either of "always", "auto", or "never")')
    return flags[use_cudnn]


_tensor_core_flag = {'always': True, 'auto': None, 'never': False}


def should_use_cudnn_tensor_core(dtype):
    """Tells whether cuDNN should use Tensor Cores.

    Reads ``chainer.config.use_cudnn_tensor_core``; with ``'auto'`` the
    answer is cuDNN's, and ``False`` when cuDNN is not enabled.

    Args:
        dtype (numpy.dtype): The data type of the input.

    Returns:
        bool: Whether the call is to use Tensor Cores.

    Raises:
        ValueError: If the configuration is invalid.
    """
    setting = config.use_cudnn_tensor_core
    if setting not in _tensor_core_flag:
        raise ValueError(
            f'invalid use_cudnn_tensor_core configuration: {setting!r} '
            '(must be either of "always", "auto", or "never")')
    use_tensor_core = _tensor_core_flag[setting]
    if use_tensor_core is None:
        if not cudnn_enabled:
            return False
        return bool(cudnn.is_tensor_core_available(dtype))
    return use_tensor_core


def get_cudnn_dropout_states():
    """Returns the cuDNN dropout states of the current thread and device.

    Raises:
        RuntimeError: If cuDNN is not enabled.
    """
    if not cudnn_enabled:
        raise RuntimeError('cuDNN is not enabled.')
    return get_cudnn_dropout_states_core(threading.current_thread().ident)


_dropout_states_count = itertools.count()


@memoize(for_each_device=True)
def get_cudnn_dropout_states_core(thread_id):
    """Creates cuDNN dropout states, memoized per thread and device.

    The seed is ``CHAINER_SEED`` when set, else random, plus a counter so
    that each set of states differs.
    """
    states_id = next(_dropout_states_count)
    seed = os.getenv('CHAINER_SEED')
    if seed is None:
        seed = int.from_bytes(os.urandom(8), 'little')
    seed = (int(seed) + states_id) % (1 << 64)
    return cudnn.DropoutStates(None, seed)

