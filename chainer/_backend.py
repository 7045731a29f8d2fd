"""The abstract :class:`Device` shared by every backend."""


def _convert_arrays(array, func):
    """Applies ``func`` to an array, or to each item of a list or tuple.

    A list or a tuple is converted item by item into a container of the same
    type; ``None`` items stay ``None`` and an object that appears several
    times is converted once, so the copies stay shared. Anything else is
    passed to ``func`` as is.

    Args:
        array: An array, ``None``, or a list or tuple of them.
        func: The function converting one array.

    Returns:
        The converted array, or a container of converted arrays.
    """
    if not isinstance(array, (list, tuple)):
        return func(array)
    converted = {}
    result = []
    for item in array:
        if item is None:
            result.append(None)
            continue
        key = id(item)
        if key not in converted:
            converted[key] = func(item)
        result.append(converted[key])
    return type(array)(result)


class _DummyContext:
    """A context manager that does nothing."""

    def __enter__(self):
        pass

    def __exit__(self, typ, value, traceback):
        pass


_dummy_context = _DummyContext()


def _must_override(kind):
    return NotImplementedError(
        f'Device implementation must override this {kind}.')


class Device:
    """Base class of the devices on which arrays live.

    The concrete devices are :class:`chainer.backend.CpuDevice`,
    :class:`chainer.backend.GpuDevice`,
    :class:`chainer.backend.Intel64Device` and
    :class:`chainer.backend.ChainerxDevice`. Use :func:`chainer.get_device`
    to obtain one from a specifier such as ``'@numpy'`` or ``'@cupy:0'``.
    """

    @property
    def xp(self):
        """The array module (``numpy`` or ``cupy``) of the device."""
        raise _must_override('property')

    @property
    def name(self):
        """The unique name of the device, e.g. ``'@numpy'``."""
        raise _must_override('property')

    @property
    def supported_array_types(self):
        """The array types that the device's array module handles.

        Returns:
            tuple of types.
        """
        raise _must_override('property')

    def __str__(self):
        return self.name

    def __enter__(self):
        """Raises ``RuntimeError``: use :func:`chainer.using_device`."""
        raise RuntimeError(
            'Device class does not support runtime context using `with` '
            'statement. Use chainer.using_device instead.')

    def __exit__(self, exc_type, exc_value, traceback):
        """Never called, as :meth:`__enter__` always raises."""

    def __eq__(self, other):
        raise _must_override('method')

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.name)

    def create_context(self):
        """Returns a context manager making the device current.

        :func:`chainer.using_device` calls this method. The base
        implementation returns a context manager that does nothing.
        """
        return _dummy_context

    def send(self, arrays):
        """Transfers arrays to the device.

        Args:
            arrays: An array, ``None``, or a list or tuple of arrays (NumPy,
                CuPy or NumPy scalars). Lists and tuples are converted one
                level deep, keeping their type; ``None`` stays ``None``.

        Returns:
            The transferred array or arrays.
        """
        return _convert_arrays(arrays, self.send_array)

    def send_array(self, array):
        """Transfers a single array to the device.

        Args:
            array: The array to transfer.

        Returns:
            The array on this device.
        """
        raise _must_override('method')

    def use(self):
        """Selects this device as the current one of the calling thread."""

    def is_array_supported(self, array):
        """Tells whether ``array`` lives on this device.

        Args:
            array: The array to check.

        Returns:
            bool: ``True`` if the device can compute on ``array`` directly.
        """
        raise _must_override('method')
