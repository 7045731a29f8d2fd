import numpy
import pytest

from chainer import backend
from chainer.backends import _cpu


def test_cpu_device_attributes():
    device = _cpu.CpuDevice()
    assert device.name == '@numpy'
    assert str(device) == '@numpy'
    assert repr(device) == '<CpuDevice (numpy)>'
    assert device.xp is numpy
    assert device.supported_array_types == (numpy.ndarray,)
    assert backend.CpuDevice is _cpu.CpuDevice


def test_cpu_device_equality_and_hash():
    assert _cpu.CpuDevice() == _cpu.CpuDevice()
    assert hash(_cpu.CpuDevice()) == hash(_cpu.CpuDevice())
    assert _cpu.CpuDevice() != '@numpy'
    assert _cpu.CpuDevice() != -1
    assert len({_cpu.CpuDevice(), _cpu.CpuDevice()}) == 1


@pytest.mark.parametrize(
    'value, expected',
    [(numpy.zeros(2), True), (numpy.float32(1), False), (1, False),
     (None, False), ([1], False)],
    ids=['array', 'numpy-scalar', 'int', 'none', 'list'])
def test_from_array_and_is_array_supported(value, expected):
    device = _cpu.CpuDevice.from_array(value)
    assert (device == _cpu.CpuDevice()) is expected
    assert (device is None) is not expected
    assert _cpu.CpuDevice().is_array_supported(value) is expected


def test_array_to_cpu_returns_numpy_array_as_is():
    a = numpy.arange(4)
    assert _cpu._array_to_cpu(a) is a
    assert _cpu._array_to_cpu(None) is None


@pytest.mark.parametrize(
    'value, dtype',
    [(1, numpy.dtype(int)), (1.5, numpy.dtype(float)),
     (numpy.float32(2), numpy.dtype(numpy.float32)),
     (numpy.int8(3), numpy.dtype(numpy.int8)),
     (True, numpy.dtype(bool)), ('ab', numpy.dtype('<U2'))],
    ids=['int', 'float', 'float32', 'int8', 'bool', 'str'])
def test_array_to_cpu_scalars_become_0d_arrays(value, dtype):
    result = _cpu._array_to_cpu(value)
    assert isinstance(result, numpy.ndarray)
    assert result.shape == ()
    assert result.dtype == dtype
    assert result[()] == value


@pytest.mark.parametrize(
    'value', [[1, 2], (1,), {'a': 1}, object()],
    ids=['list', 'tuple', 'dict', 'object'])
def test_array_to_cpu_rejects_non_arrays(value):
    with pytest.raises(TypeError) as info:
        _cpu._array_to_cpu(value)
    assert str(info.value) == (
        'Array cannot be converted into an numpy.ndarray\n'
        f'Actual type: {type(value)}.')


def test_to_cpu_containers():
    a = numpy.zeros(2)
    assert _cpu._to_cpu(a) is a
    listed = _cpu._to_cpu([a, None, 3])
    assert type(listed) is list
    assert listed[0] is a and listed[1] is None
    assert listed[2].shape == () and listed[2] == 3
    assert type(_cpu._to_cpu((a,))) is tuple
    with pytest.raises(TypeError):
        _cpu._to_cpu([[a]])


def test_send_array_converts_one_array():
    a = numpy.ones(3)
    device = _cpu.CpuDevice()
    assert device.send_array(a) is a
    assert device.send_array(numpy.float64(2)).shape == ()
