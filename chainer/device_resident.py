"""DeviceResident: objects whose arrays live on one device and move as one.

``to_device`` is the one way to move an object; the older ``to_cpu``,
``to_gpu`` and ``to_intel64`` still work but warn. Subclasses may not
override ``to_device``, ``to_chx`` or ``from_chx`` (a :class:`TypeError`
at class definition); overriding one of the older methods warns, and the
override is still called when the object is moved as part of a larger
hierarchy.
"""

import abc
import threading
import warnings

import numpy

from chainer import backend
from chainer.backends import _cpu
from chainer.backends import cuda
from chainer.backends import intel64
from chainer.utils import meta


_thread_local = threading.local()
_thread_local.flag_gpu_to_gpu = None

_LEGACY_TO_METHODS = ('to_cpu', 'to_gpu', 'to_intel64')


class DeviceResident(meta.enable_final(meta_base=abc.ABCMeta)):
    """Base of objects that hold arrays on a device (links, for instance).

    The arrays and parameters an object holds are reached through
    :meth:`device_resident_accept`, which a subclass extends to visit its
    own; :meth:`to_device` moves all of them at once.
    """

    _device = _cpu.CpuDevice()

    def __init__(self):
        self._overridden_to_methods = tuple(
            name for name in _LEGACY_TO_METHODS
            if _is_to_device_method_overridden(self, name))

    def device_resident_accept(self, visitor):
        """Lets ``visitor`` visit this object and the arrays it holds.

        Args:
            visitor (DeviceResidentsVisitor): The visitor.
        """
        visitor.visit_device_resident(self)

    @property
    def device(self):
        """The :class:`~chainer.backend.Device` the arrays live on."""
        return self._device

    @property
    def xp(self):
        """The array module (``numpy`` or ``cupy``) of the device."""
        device = self.device
        if device is None:
            return None
        return device.xp

    @meta.final(action=DeprecationWarning)
    def to_cpu(self):
        """Moves the arrays to the host memory (deprecated).

        Use ``to_device('@numpy')`` instead.

        Returns:
            The object itself.
        """
        self.device_resident_accept(_ToDeviceVisitor(
            _cpu.CpuDevice(), entry_method=('to_cpu', {}),
            starting_device_resident=self))
        return self

    @meta.final(action=DeprecationWarning)
    def to_gpu(self, device=None):
        """Moves the arrays to a GPU (deprecated).

        Use ``to_device('@cupy:N')`` instead. Arrays already on some GPU
        stay where they are.

        Args:
            device: A GPU id, a ``cupy.cuda.Device`` or ``None`` for the
                current device.

        Returns:
            The object itself.
        """
        cuda.check_cuda_available()
        gpu = cuda.GpuDevice(cuda._get_device_or_current(device))
        self.device_resident_accept(_ToDeviceVisitor(
            gpu, entry_method=('to_gpu', {'device': gpu.device}),
            skip_between_cupy_devices=True,
            starting_device_resident=self))
        return self

    @meta.final(action=DeprecationWarning)
    def to_intel64(self):
        """Moves the arrays to the iDeep device (deprecated).

        Returns:
            The object itself.
        """
        intel64.check_ideep_available()
        self.device_resident_accept(_ToDeviceVisitor(
            backend.get_device(intel64.Intel64Device()),
            entry_method=('to_intel64', {}),
            starting_device_resident=self))
        return self

    @meta.final
    def to_chx(self):
        """Raises: ChainerX is not available in this implementation."""
        raise RuntimeError('ChainerX is not available.')

    @meta.final
    def from_chx(self):
        """Does nothing: arrays are never ChainerX arrays here.

        Returns:
            The object itself.
        """
        return self

    @meta.final
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


def _is_to_device_method_overridden(device_resident, name):
    method = getattr(type(device_resident), name)
    return method is not getattr(DeviceResident, name)


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


_DEVICE_NAMES = {
    'to_cpu': '@numpy',
    'to_gpu': '@cupy:N',
    'to_intel64': '@intel64',
}


class _ToDeviceVisitor(DeviceResidentsVisitor):
    # Moves every resident, array and parameter to ``device``. A resident
    # that overrides one of the legacy to_* methods has that override
    # called instead, except the resident the move started from (whose own
    # override is what is running).

    def __init__(self, device, entry_method=None,
                 skip_between_cupy_devices=False,
                 starting_device_resident=None):
        if entry_method is not None:
            warnings.warn(
                '{} is deprecated. Please use to_device(\'{}\') instead.'
                .format(entry_method[0], _DEVICE_NAMES[entry_method[0]]),
                DeprecationWarning)
        self._device = device
        self._entry_method = entry_method
        self._skip_between_cupy_devices = skip_between_cupy_devices
        self._starting_device_resident = starting_device_resident

    def visit_device_resident(self, device_resident):
        device_resident._device = self._device
        overridden = device_resident._overridden_to_methods
        if not overridden or \
                device_resident is self._starting_device_resident:
            return
        if self._entry_method is not None:
            name, kwargs = self._entry_method
        else:
            name, kwargs = _legacy_method_of(self._device)
        if name in overridden:
            getattr(device_resident, name)(**kwargs)

    def visit_array(self, arr):
        device = backend.get_device_from_array(arr)
        if self._skip_visiting(device):
            _warn_to_gpu(device, self._device)
            return arr
        return self._device.send(arr)

    def visit_variable(self, param):
        device = param.device
        if self._skip_visiting(device):
            _warn_to_gpu(device, self._device)
            return
        param.to_device(self._device)

    def _skip_visiting(self, device):
        return (self._skip_between_cupy_devices
                and isinstance(self._device, cuda.GpuDevice)
                and isinstance(device, cuda.GpuDevice))


def _legacy_method_of(device):
    if device.xp is numpy:
        if isinstance(device, intel64.Intel64Device):
            return 'to_intel64', {}
        return 'to_cpu', {}
    if device.xp is cuda.cupy:
        return 'to_gpu', {'device': device.device.id}
    return None, {}


def _warn_to_gpu(src_device, dst_device):
    src_id = src_device.device.id
    dst_id = dst_device.device.id
    if src_id == dst_id:
        return
    if getattr(_thread_local, 'flag_gpu_to_gpu', None) is None:
        warnings.warn(
            'You are trying to transfer a DeviceResident to GPU-{dst} which '
            'is already on GPU-{src}.\n'
            '`DeviceResident.to_gpu` does nothing if the DeviceResident is '
            'already on GPU.\n'
            'You can use `DeviceResident.to_device()` method to perform '
            'inter-GPU transfer.\n'.format(dst=dst_id, src=src_id),
            RuntimeWarning)
    else:
        _thread_local.flag_gpu_to_gpu = True


def _is_array(value):
    return isinstance(value, backend._ARRAY_TYPES)
