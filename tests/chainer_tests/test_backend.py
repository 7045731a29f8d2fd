import numpy
import pytest

import chainer
import chainerx
from chainer import _backend, backend
from chainer.backends import cuda, intel64


def _gpu_count():
    if not cuda.available:
        return 0
    try:
        return cuda.cupy.cuda.runtime.getDeviceCount()
    except Exception:  # no driver means no GPU
        return 0


def gpu_test(min_devices=1):
    def decorate(f):
        f = pytest.mark.skipif(
            _gpu_count() < min_devices,
            reason=f'needs CuPy and {min_devices} GPU(s)')(f)
        if min_devices > 1:
            f = pytest.mark.multi_gpu(f)
        return pytest.mark.gpu(f)
    return decorate


no_cupy = pytest.mark.skipif(
    cuda.available, reason='checks the behaviour without CuPy')


class _NamedDevice(_backend.Device):
    name = '@mine'


# ---------------------------------------------------------------------------
# Device base class
# ---------------------------------------------------------------------------

@pytest.mark.parametrize('attr', ['xp', 'name', 'supported_array_types'])
def test_device_abstract_properties(attr):
    with pytest.raises(NotImplementedError, match='must override'):
        getattr(_backend.Device(), attr)


def test_device_abstract_methods():
    device = _backend.Device()
    with pytest.raises(NotImplementedError):
        device == device  # noqa: B015
    with pytest.raises(NotImplementedError):
        device.is_array_supported(numpy.zeros(1))
    with pytest.raises(NotImplementedError):
        device.send(numpy.zeros(1))


def test_device_str_and_hash_use_name():
    device = _NamedDevice()
    assert str(device) == '@mine'
    assert hash(device) == hash('@mine')


def test_device_default_context_and_use():
    device = _NamedDevice()
    with device.create_context() as value:
        assert value is None
    assert device.use() is None


def test_device_with_statement_raises():
    with pytest.raises(RuntimeError, match='using_device'), \
            backend.CpuDevice():
        pass


def test_device_ne_is_negated_eq():
    assert not (backend.CpuDevice() != backend.CpuDevice())
    assert backend.CpuDevice() != _NamedDevice()


# ---------------------------------------------------------------------------
# Device.send
# ---------------------------------------------------------------------------

def test_send_single_array_is_returned_as_is():
    a = numpy.arange(3)
    assert backend.CpuDevice().send(a) is a


def test_send_none():
    assert backend.CpuDevice().send(None) is None


@pytest.mark.parametrize('container', [list, tuple], ids=['list', 'tuple'])
def test_send_container_keeps_type_and_none(container):
    a = numpy.arange(3)
    result = backend.CpuDevice().send(container([a, None, 2.5]))
    assert type(result) is container
    assert result[0] is a
    assert result[1] is None
    assert isinstance(result[2], numpy.ndarray)
    assert result[2].shape == ()
    assert result[2] == 2.5


def test_send_shared_item_is_converted_once():
    scalar = numpy.float32(1)
    result = backend.CpuDevice().send([scalar, scalar])
    assert result[0] is result[1]


def test_send_empty_list():
    assert backend.CpuDevice().send([]) == []


@pytest.mark.parametrize(
    'value', [[[numpy.zeros(1)]], {'a': numpy.zeros(1)}, {1}, object()],
    ids=['nested-list', 'dict', 'set', 'object'])
def test_send_unsupported_raises_type_error(value):
    with pytest.raises(TypeError, match='cannot be converted'):
        backend.CpuDevice().send(value)


# ---------------------------------------------------------------------------
# get_device
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    'spec', ['@numpy', -1, -5, numpy.int64(-1), '-1'],
    ids=['numpy', 'minus-one', 'minus-five', 'numpy-int', 'minus-one-str'])
def test_get_device_cpu(spec):
    device = backend.get_device(spec)
    assert isinstance(device, backend.CpuDevice)
    assert device == backend.CpuDevice()
    assert device.xp is numpy
    assert device.name == '@numpy'


def test_get_device_returns_device_intact():
    device = backend.CpuDevice()
    assert backend.get_device(device) is device


@pytest.mark.parametrize(
    'spec', ['native:0', 'cuda:0', 'native', 'cuda', 'foo', ''],
    ids=['native-0', 'cuda-0', 'native', 'cuda', 'foo', 'empty'])
def test_get_device_chainerx_specifier_raises(spec):
    with pytest.raises(RuntimeError) as info:
        backend.get_device(spec)
    message = str(info.value)
    assert f"ChainerX device specifier '{spec}'" in message
    assert 'ChainerX is not available' in message


@pytest.mark.parametrize(
    'spec', ['@numpy:0', '@cupy', '@', '@foo', '@foo:1', '@intel64:0',
             '@numpy:'],
    ids=['numpy-0', 'cupy', 'at', 'foo', 'foo-1', 'intel64-0', 'numpy-colon'])
def test_get_device_malformed_at_specifier(spec):
    with pytest.raises(ValueError, match=f'Actual: {spec}$'):
        backend.get_device(spec)


@pytest.mark.parametrize(
    'spec', [None, 1.5, b'@numpy', ('@numpy',), [0]],
    ids=['none', 'float', 'bytes', 'tuple', 'list'])
def test_get_device_bad_type(spec):
    with pytest.raises(TypeError, match='Device specifier must be'):
        backend.get_device(spec)


def test_get_device_cupy_bad_index():
    with pytest.raises(ValueError, match='invalid literal'):
        backend.get_device('@cupy:x')


@no_cupy
@pytest.mark.parametrize(
    'spec', ['@cupy:0', 0, 1, '0', True, numpy.int32(0)],
    ids=['cupy-0', 'zero', 'one', 'zero-str', 'true', 'numpy-int'])
def test_get_device_gpu_without_cupy(spec):
    with pytest.raises(RuntimeError, match='CUDA environment is not'):
        backend.get_device(spec)


def test_get_device_intel64_raises():
    with pytest.raises(RuntimeError, match='iDeep is not available'):
        backend.get_device('@intel64')


# ---------------------------------------------------------------------------
# get_device_from_array, get_array_module, using_device
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    'arrays',
    [(numpy.zeros(2),), (), (None,), (1,), (numpy.float32(1),),
     ([numpy.zeros(1)],), (None, numpy.zeros(1))],
    ids=['array', 'nothing', 'none', 'int', 'scalar', 'list', 'mixed'])
def test_get_device_from_array_cpu(arrays):
    device = backend.get_device_from_array(*arrays)
    assert isinstance(device, backend.CpuDevice)


@pytest.mark.parametrize(
    'args', [(numpy.zeros(2),), (), (None, 1), (numpy.float64(1), 'x')],
    ids=['array', 'nothing', 'none-int', 'scalar-str'])
def test_get_array_module_numpy(args):
    assert backend.get_array_module(*args) is numpy


def test_get_array_module_variable():
    import chainer
    variable = chainer.Variable(numpy.zeros(2, numpy.float32))
    assert backend.get_array_module(variable) is numpy


@pytest.mark.parametrize(
    'spec', ['@numpy', -1, backend.CpuDevice()],
    ids=['numpy', 'minus-one', 'device'])
def test_using_device_cpu(spec):
    with backend.using_device(spec) as value:
        assert value is None


def test_using_device_rejects_bad_specifiers():
    with pytest.raises(TypeError):
        backend.using_device(None)
    with pytest.raises(RuntimeError, match='ChainerX'):
        backend.using_device('native:0')


# ---------------------------------------------------------------------------
# copyto
# ---------------------------------------------------------------------------

def test_copyto_numpy():
    dst = numpy.zeros(3, numpy.float32)
    backend.copyto(dst, numpy.arange(3, dtype=numpy.float32))
    numpy.testing.assert_array_equal(dst, [0, 1, 2])


@pytest.mark.parametrize(
    'src', [5, [1, 2], numpy.float64(7), numpy.array([[3.0, 4.0]])],
    ids=['int', 'list', 'numpy-scalar', 'broadcast-row'])
def test_copyto_numpy_broadcasts(src):
    dst = numpy.zeros((2, 2))
    backend.copyto(dst, src)
    numpy.testing.assert_array_equal(dst, numpy.broadcast_to(src, (2, 2)))


def test_copyto_numpy_shape_mismatch():
    with pytest.raises(ValueError):
        backend.copyto(numpy.zeros(3), numpy.zeros(2))


def test_copyto_numpy_unsafe_cast():
    with pytest.raises(TypeError):
        backend.copyto(numpy.zeros(2, numpy.int32), numpy.ones(2) * 1.5)


def test_copyto_non_array_destination():
    with pytest.raises(TypeError, match="non-array object of type <class"):
        backend.copyto([0, 0], numpy.zeros(2))


# ---------------------------------------------------------------------------
# ChainerX entry points
# ---------------------------------------------------------------------------

def test_chainerx_device_cannot_be_created():
    with pytest.raises(RuntimeError, match='ChainerX is not available'):
        backend.ChainerxDevice(None)
    with pytest.raises(RuntimeError, match='ChainerX is not available'):
        backend.ChainerxDevice.from_fallback_device(backend.CpuDevice())
    assert backend.ChainerxDevice.from_array(numpy.zeros(1)) is None
    assert issubclass(backend.ChainerxDevice, backend.Device)


def test_to_chx():
    assert backend.to_chx(None) is None
    assert backend.to_chx([None]) == [None]
    with pytest.raises(RuntimeError, match='ChainerX is not available'):
        backend.to_chx(numpy.zeros(1))


def test_from_chx():
    a = numpy.zeros(1)
    assert backend.from_chx(a) is a
    assert backend.from_chx(None) is None
    result = backend.from_chx((a, None))
    assert type(result) is tuple
    assert result[0] is a
    with pytest.raises(TypeError, match='invalid type'):
        backend.from_chx(1)


def test_chainerx_is_not_available():
    assert not chainerx.is_available()
    assert not isinstance(numpy.zeros(1), chainerx.ndarray)


# ---------------------------------------------------------------------------
# Helpers and iDeep
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    'x, expected',
    [(numpy.array([1.0, numpy.nan]), True), (numpy.array([1.0, 2.0]), False),
     (numpy.array([1 + 0j, complex(numpy.nan, 0)]), True),
     (numpy.array([1, 2]), False)],
    ids=['float-nan', 'float', 'complex-nan', 'int'])
def test_contains_nan(x, expected):
    assert bool(backend._contains_nan(x)) is expected


def test_guess_device_from_numpy():
    assert backend._guess_device_from_array_module(numpy) == \
        backend.CpuDevice()


def test_intel64_device_unavailable():
    with pytest.raises(RuntimeError, match='iDeep is not available'):
        backend.Intel64Device()
    assert backend.Intel64Device.from_array(numpy.zeros(1)) is None
    assert not intel64.is_ideep_available()
    assert not intel64.should_use_ideep('>=auto')
    assert not intel64.inputs_all_ready((numpy.zeros((2, 2)),))
    with pytest.raises(RuntimeError, match='iDeep is not available'):
        intel64.check_ideep_available()


def test_public_names():
    for name in ['ChainerxDevice', 'CpuDevice', 'Device', 'GpuDevice',
                 'Intel64Device', 'copyto', 'from_chx', 'get_array_module',
                 'get_device', 'get_device_from_array', 'to_chx',
                 'using_device', 'cuda', 'intel64']:
        assert hasattr(backend, name), name


# ---------------------------------------------------------------------------
# GPU
# ---------------------------------------------------------------------------

@gpu_test()
def test_gpu_get_device_forms_agree():
    cupy = cuda.cupy
    device = backend.get_device('@cupy:0')
    assert isinstance(device, backend.GpuDevice)
    assert device == backend.get_device(0)
    assert device == backend.get_device('0')
    assert device == backend.get_device(cupy.cuda.Device(0))
    assert device.name == '@cupy:0'
    assert repr(device) == '<GpuDevice (cupy):0>'
    assert hash(device) == hash('@cupy:0')
    assert device.xp is cupy
    assert device != backend.CpuDevice()


@gpu_test()
def test_gpu_send_and_back():
    cupy = cuda.cupy
    device = backend.get_device('@cupy:0')
    a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    g = device.send(a)
    assert isinstance(g, cupy.ndarray)
    assert device.is_array_supported(g)
    assert not device.is_array_supported(a)
    assert device.send(g) is g
    back = backend.CpuDevice().send(g)
    assert isinstance(back, numpy.ndarray)
    numpy.testing.assert_array_equal(back, a)


@gpu_test()
def test_gpu_array_module_and_device_from_array():
    cupy = cuda.cupy
    g = cupy.zeros(2)
    assert backend.get_array_module(numpy.zeros(1), g) is cupy
    device = backend.get_device_from_array(numpy.zeros(1), g)
    assert device == backend.get_device('@cupy:0')


@gpu_test()
def test_gpu_array_module_of_variable():
    import chainer
    cupy = cuda.cupy
    variable = chainer.Variable(cupy.zeros(2, numpy.float32))
    assert backend.get_array_module(variable) is cupy


@gpu_test()
def test_gpu_copyto_between_host_and_device():
    cupy = cuda.cupy
    dst = cupy.zeros(3, numpy.float32)
    backend.copyto(dst, numpy.arange(3, dtype=numpy.float32))
    numpy.testing.assert_array_equal(dst.get(), [0, 1, 2])
    backend.copyto(dst, numpy.array([5.0]))
    numpy.testing.assert_array_equal(dst.get(), [5, 5, 5])
    host = numpy.zeros(3, numpy.float32)
    backend.copyto(host, dst)
    numpy.testing.assert_array_equal(host, [5, 5, 5])
    with pytest.raises(TypeError, match='non-array'):
        backend.copyto(dst, 1)


@gpu_test(min_devices=2)
def test_gpu_using_device_and_copy_across_devices():
    cupy = cuda.cupy
    with backend.using_device('@cupy:1'):
        a = cupy.arange(3)
        assert cupy.cuda.Device().id == 1
    assert a.device.id == 1
    dst = cupy.zeros(3, a.dtype)
    backend.copyto(dst, a)
    assert dst.device.id == 0
    numpy.testing.assert_array_equal(dst.get(), [0, 1, 2])


def test_array_types_without_cuda():
    if chainer.backends.cuda.available:
        pytest.skip('CuPy is available')
    assert chainer.get_array_types() == (numpy.ndarray,)


def test_top_level_helpers():
    assert chainer.get_compute_mode() is None
    with chainer.using_config('use_cudnn', 'never'):
        assert not chainer.should_use_cudnn('>=auto')
