"""Converters: turn a list of examples into batched arrays on a device."""

import collections
import functools

import numpy

import chainer
from chainer import backend
from chainer.backends import cuda


class Converter:
    """Base class of converters.

    A converter receives a batch as returned by an iterator, transforms it
    (typically by stacking the examples into arrays) and sends it to a
    device. Subclasses implement :meth:`__call__`.

    .. seealso::
        :func:`chainer.dataset.converter`, which turns a function into a
        :class:`Converter`.
    """

    def __call__(self, batch, device):
        """Converts a batch.

        Args:
            batch: The batch, of any type the converter understands.
            device (~chainer.backend.Device): The device to send the
                converted batch to.

        Returns:
            The converted batch.
        """
        raise NotImplementedError(
            'Concrete class must implement __call__.')


class _ArbitraryCallableConverter(Converter):
    """A :class:`Converter` wrapping a function.

    The wrapped function receives the arguments it was called with, except
    that the device (the second positional argument, or the ``device``
    keyword) is first turned into a :class:`~chainer.backend.Device`, and
    ``None`` is kept as is.

    Args:
        base_callable: The function to wrap.
    """

    def __init__(self, base_callable):
        if not callable(base_callable):
            raise TypeError(
                'Can only wrap a callable. Actual: {}'.format(
                    type(base_callable)))
        self.base_callable = base_callable
        # The wrapped function's name, docstring and signature stand for
        # the converter's (help(), the API reference).
        functools.update_wrapper(self, base_callable)

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            args = list(args)
            args[1] = _get_device(args[1])
        elif 'device' in kwargs:
            kwargs['device'] = _get_device(kwargs['device'])
        return self.base_callable(*args, **kwargs)


def converter():
    """Decorator that turns a converter function into a :class:`Converter`.

    The decorated function takes a batch and a
    :class:`~chainer.backend.Device` and returns the converted batch. The
    resulting converter also accepts the legacy device specifiers (an
    integer: negative for the CPU, ``N`` for GPU ``N``; a string such as
    ``'@numpy'``), converting them to a device before the call.

    Example:
        >>> @chainer.dataset.converter()
        ... def to_pairs(batch, device):
        ...     return device.send(numpy.asarray(batch))
        >>> to_pairs([[1, 2], [3, 4]], -1)
        array([[1, 2],
               [3, 4]])

    .. note::
        Converters made by this decorator cannot be pickled; write a
        :class:`Converter` subclass where pickling is needed (e.g. with
        ``spawn``-started processes).
    """
    def wrap(func):
        return _ArbitraryCallableConverter(func)
    return wrap


def _call_converter(converter, batch, device):
    """Calls a converter of either style with a device.

    A :class:`Converter` receives the :class:`~chainer.backend.Device`; a
    plain function (the old style) receives ``None``, ``-1`` for the CPU or
    the GPU's integer ID.

    Args:
        converter: A :class:`Converter` or a plain function.
        batch: The batch to convert.
        device (~chainer.backend.Device or None): The target device.

    Returns:
        The converted batch.
    """
    assert device is None or isinstance(device, backend.Device)
    if isinstance(converter, Converter):
        return converter(batch, device)
    if device is None:
        return converter(batch, None)
    if device.xp is numpy:
        return converter(batch, -1)
    if device.xp is cuda.cupy:
        return converter(batch, device.device.id)
    raise RuntimeError(
        'Converter does not support ChainerX. '
        'Use chainer.dataset.converter decorator.')


def to_device(device, x):
    """Sends an array to a device.

    Args:
        device: A device specifier (see :func:`chainer.get_device`), a
            :class:`~chainer.backend.Device`, a negative integer for the
            CPU, a non-negative integer for that GPU, or ``None`` to leave
            the array where it is.
        x: The array to send.

    Returns:
        The array on the device.
    """
    device = _get_device(device)
    if device is None:
        return x
    return device.send(x)


def _get_device(device_spec):
    if device_spec is None:
        return None
    return backend.get_device(device_spec)


def concat_examples_func(batch, device=None, padding=None):
    """Stacks a list of examples into arrays.

    Each example is an array (or a scalar or list that NumPy turns into
    one), a tuple, or a dict. The examples are stacked along a new first
    axis (the batch axis):

    * array examples give one array;
    * tuple examples give a tuple holding, for each position, the stack of
      the elements at that position;
    * dict examples give a dict holding, for each key of the first example,
      the stack of the values under that key.

    Arrays of different shapes are stacked only when ``padding`` is given:
    the result then has, on each axis, the largest size among the examples,
    and the cells an example does not fill hold ``padding``.

    Example:
        >>> batch = [(numpy.array([1, 2]), 0), (numpy.array([3]), 1)]
        >>> x, t = chainer.dataset.concat_examples(batch, padding=-1)
        >>> x
        array([[ 1,  2],
               [ 3, -1]])
        >>> t
        array([0, 1])

    Args:
        batch (list): The examples, as returned by an iterator.
        device: The device to send the arrays to (see :func:`to_device`);
            ``None`` leaves them where they are.
        padding: The value of padded cells, or ``None`` (the default) to
            require equal shapes. For tuple or dict examples it may be a
            tuple or dict giving one value per element.

    Returns:
        An array, a tuple of arrays or a dict of arrays, as the examples
        are.

    Raises:
        ValueError: If ``batch`` is empty, or if the shapes differ and
            ``padding`` is ``None``.
    """
    assert device is None or isinstance(device, backend.Device)
    if not batch:
        raise ValueError('batch is empty')
    first = batch[0]
    if isinstance(first, tuple):
        if not isinstance(padding, tuple):
            padding = (padding,) * len(first)
        return tuple(
            to_device(device, _concat_arrays(
                [example[i] for example in batch], padding[i]))
            for i in range(len(first)))
    if isinstance(first, dict):
        if not isinstance(padding, dict):
            padding = dict.fromkeys(first, padding)
        return {
            key: to_device(device, _concat_arrays(
                [example[key] for example in batch], padding[key]))
            for key in first}
    return to_device(device, _concat_arrays(batch, padding))


def _concat_arrays(arrays, padding):
    # Built-in values (numbers, lists) are stacked by NumPy in one go.
    if not isinstance(arrays[0], chainer.get_array_types()):
        arrays = numpy.asarray(arrays)
    if padding is not None:
        return _concat_arrays_with_padding(arrays, padding)
    if isinstance(arrays, numpy.ndarray):
        return arrays
    first = arrays[0]
    if isinstance(first, numpy.ndarray):
        return numpy.stack(arrays)
    device = backend.get_device_from_array(first)
    with chainer.using_device(device):
        return device.xp.stack(arrays)


def _concat_arrays_with_padding(arrays, padding):
    shape = arrays[0].shape
    for array in arrays[1:]:
        if array.shape != shape:
            shape = tuple(map(max, shape, array.shape))
    device = backend.get_device_from_array(arrays[0])
    with chainer.using_device(device):
        result = device.xp.full(
            (len(arrays),) + shape, padding, dtype=arrays[0].dtype)
        for i, array in enumerate(arrays):
            result[(i,) + tuple(slice(n) for n in array.shape)] = array
    return result


concat_examples = _ArbitraryCallableConverter(concat_examples_func)


class ConcatWithAsyncTransfer:
    """A converter that overlaps host-to-GPU copies with computation.

    It stacks examples as :func:`concat_examples` does, then copies each
    array to the GPU on a separate CUDA stream through pinned host memory,
    with double buffering, so that the next batch is transferred while the
    GPU still computes on the current one. Use it as the ``converter`` of an
    updater::

        updater = training.updaters.StandardUpdater(
            train_iter, optimizer, device=0,
            converter=ConcatWithAsyncTransfer())

    The device (an integer ID) is fixed by the first call.

    Args:
        stream (cupy.cuda.Stream): The stream used for the copies; one is
            created at the first call when ``None``.
        compute_stream (cupy.cuda.Stream): The stream the model computes
            on. When given, CUDA events order the copies with respect to it
            instead of synchronizing the whole device.
    """

    def __init__(self, stream=None, compute_stream=None):
        self._stream = stream
        self.compute_stream = compute_stream
        self._device = None
        self._conveyor = collections.defaultdict(self._get_conveyor)
        if compute_stream is not None:
            # _event1 keeps the host from overwriting arrays that kernels
            # still read; _event2 keeps kernels from reading arrays still
            # being copied.
            self._event1 = cuda.Event()
            self._event2 = cuda.Event()
            self._sync_get = False
        else:
            self._sync_get = True

    def _get_conveyor(self):
        return Conveyor(self._device, self._stream)

    def __call__(self, batch, device=None, padding=None):
        """Stacks a batch and starts its transfer to the GPU.

        Args:
            batch (list): The examples.
            device (int): The GPU ID (negative for the CPU, ``None`` to
                leave the arrays on the host). It must be the same at every
                call.
            padding: As for :func:`concat_examples`.

        Returns:
            The batch as the examples are laid out: one array, or a tuple
            or dict of arrays.

        Raises:
            ValueError: If ``batch`` is empty or ``device`` differs from the
                one of the first call.
        """
        if not batch:
            raise ValueError('batch is empty')
        first = batch[0]
        if not self._conveyor:
            self._device = device
            if device is not None and device >= 0 and self._stream is None:
                with cuda.get_device_from_id(device):
                    self._stream = cuda.Stream(non_blocking=True)
        if device is not self._device:
            raise ValueError('device is different')
        if self.compute_stream is not None:
            self._event1.synchronize()
            self._event1.record(stream=self.compute_stream)
        with cuda.get_device_from_id(device):
            if isinstance(first, tuple):
                if not isinstance(padding, tuple):
                    padding = (padding,) * len(first)
                keys = range(len(first))
            elif isinstance(first, dict):
                if not isinstance(padding, dict):
                    padding = dict.fromkeys(first, padding)
                keys = list(first)
            else:
                return to_device(device, _concat_arrays(batch, padding))
            for key in keys:
                self._conveyor[key].put(_concat_arrays(
                    [example[key] for example in batch], padding[key]))
            result = [self._conveyor[key].get(sync=self._sync_get)
                      for key in keys]
            if self.compute_stream is not None:
                self._event2.record(stream=self._stream)
                self.compute_stream.wait_event(self._event2)
        if isinstance(first, tuple):
            return tuple(result)
        return dict(zip(keys, result))


class Conveyor:
    """Double-buffered asynchronous copy of host arrays to a GPU.

    :meth:`put` starts copying an array; :meth:`get` returns the copied
    array, in the order of the calls to :meth:`put`.

    Args:
        device (int): The GPU ID; a negative ID or ``None`` means no
            asynchronous copy (the array is sent with :func:`to_device`).
        stream (cupy.cuda.Stream): The stream of the copies; ``None`` means
            no asynchronous copy.
    """

    def __init__(self, device=None, stream=None):
        self._device = device
        self._stream = stream
        self._array_set = [[None, None], [None, None]]
        self._ret_array = []

    def _is_async(self):
        return (self._device is not None and self._device >= 0
                and self._stream is not None)

    def put(self, array):
        """Starts the transfer of a host array.

        The array is copied to pinned host memory and from there to the GPU
        on the conveyor's stream. The pinned and device buffers are kept and
        reused while arrays keep the same size; two sets alternate, so the
        next transfer can start while the previous array is still in use.

        Args:
            array (numpy.ndarray): The array to send.
        """
        if not self._is_async():
            self._ret_array.append(to_device(self._device, array))
            return
        pin_array, cp_array = self._array_set.pop(0)
        if pin_array is not None and pin_array.nbytes != array.nbytes:
            pin_array = None
        with cuda.get_device_from_id(self._device):
            if pin_array is None:
                # Wait for all the work queued so far on any stream before
                # new buffers may take the place of freed ones.
                cuda.cupy.cuda.runtime.deviceSynchronize()
                pin_mem = cuda.cupy.cuda.alloc_pinned_memory(array.nbytes)
                pin_array = numpy.frombuffer(
                    pin_mem, array.dtype, array.size).reshape(array.shape)
                cp_array = cuda.cupy.empty(array.shape, array.dtype)
            pin_array[...] = array
            cp_array.set(pin_array, self._stream)
        self._array_set.append([pin_array, cp_array])
        self._ret_array.append(cp_array)

    def get(self, sync=True):
        """Returns the oldest array put and not yet returned.

        Args:
            sync (bool): If ``True``, the whole device is synchronized
                first so that the copy is complete; if ``False``, the caller
                orders its use of the array with the copy stream itself.

        Returns:
            The array on the target device.
        """
        if sync and self._is_async():
            cuda.cupy.cuda.runtime.deviceSynchronize()
        return self._ret_array.pop(0)
