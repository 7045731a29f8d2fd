"""DeviceResident: objects whose arrays live on one device and move as one.
"""

from chainer import backend
from chainer.backends import _cpu
from chainer.backends import cuda
from chainer import variable


class DeviceResident:
    """Base of objects that hold arrays on a device (links, for instance).

    The arrays and parameters an object holds are reached through
    :meth:`device_resident_accept`, which a subclass extends to visit its
    own; :meth:`to_device` moves all of them at once.
    """

    def __init__(self):
        self._device = _cpu.CpuDevice()

    @property
    def device(self):
        """The :class:`~chainer.backend.Device` the arrays live on."""
        return self._device

    @property
    def xp(self):
        """The array module (``numpy`` or ``cupy``) of the device."""
        return self._device.xp

    def device_resident_accept(self, visitor):
        """Lets ``visitor`` visit this object and the arrays it holds.

        Args:
            visitor (DeviceResidentsVisitor): The visitor.
        """
        visitor.visit_device_resident(self)

    def to_cpu(self):
        """Moves the arrays to the host memory.

        Returns:
            The object itself.
        """
        return self.to_device(_cpu.CpuDevice())

    def to_gpu(self, device=None):
        """Moves the arrays to a GPU.

        Args:
            device: A GPU id, a ``cupy.cuda.Device`` or ``None`` for the
                current device.

        Returns:
            The object itself.
        """
        cuda.check_cuda_available()
        if isinstance(device, cuda.GpuDevice):
            return self.to_device(device)
        if device is None:
            device_id = cuda.cupy.cuda.Device().id
        elif isinstance(device, cuda.cupy.cuda.Device):
            device_id = device.id
        else:
            device_id = int(device)
        return self.to_device(cuda.GpuDevice.from_device_id(device_id))

    def to_intel64(self):
        """Raises: iDeep is not supported by this implementation."""
        raise RuntimeError('iDeep is not available: to_intel64 is not '
                           'supported')

    def to_chx(self):
        """Raises: ChainerX is not available in this implementation."""
        raise RuntimeError('ChainerX is not available.')

    def from_chx(self):
        """Does nothing: arrays are never ChainerX arrays here.

        Returns:
            The object itself.
        """
        return self

    def to_device(self, device):
        """Moves the arrays to the given device.

        Args:
            device: A device specifier (``'@numpy'``, ``'@cupy:0'``, an int,
                a :class:`~chainer.backend.Device`, ...).

        Returns:
            The object itself.
        """
        device = backend.get_device(device)
        self.device_resident_accept(_ToDeviceVisitor(device))
        return self


class DeviceResidentsVisitor:
    """Visitor of device residents and the arrays they hold."""

    def visit_device_resident(self, device_resident):
        """Visits a :class:`DeviceResident`."""
        raise NotImplementedError()

    def visit_array(self, arr):
        """Visits an array and returns its replacement."""
        raise NotImplementedError()

    def visit_variable(self, param):
        """Visits a variable (a parameter) in place."""
        raise NotImplementedError()


class _ToDeviceVisitor(DeviceResidentsVisitor):

    def __init__(self, device):
        self._device = device

    def visit_device_resident(self, device_resident):
        device_resident._device = self._device

    def visit_array(self, arr):
        return self._device.send(arr)

    def visit_variable(self, param):
        param.to_device(self._device)


def _is_array(value):
    return isinstance(value, variable._ARRAY_TYPES)
