import numpy
import pytest

from chainer import backend, configuration
from chainer.backends import cuda


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


# ---------------------------------------------------------------------------
# Without CuPy
# ---------------------------------------------------------------------------

@no_cupy
def test_module_state_without_cupy():
    assert cuda.available is False
    assert cuda.cudnn_enabled is False
    assert cuda.cupy is not None and cuda.cupyx is None
    assert cuda.cudnn is None
    assert not isinstance(numpy.zeros(1), cuda.ndarray)
    assert cuda.GpuDevice.supported_array_types == (cuda.ndarray,)


@no_cupy
def test_check_cuda_available_message():
    with pytest.raises(RuntimeError) as info:
        cuda.check_cuda_available()
    message = str(info.value)
    assert message.startswith('CUDA environment is not correctly set up')
    assert 'cupy' in message
    assert 'pip install cupy' in message


@no_cupy
@pytest.mark.parametrize(
    'call',
    [lambda: cuda.to_gpu(numpy.zeros(1)), lambda: cuda.to_gpu(None),
     lambda: cuda.to_gpu([numpy.zeros(1)]),
     lambda: cuda.copy(numpy.zeros(1)),
     lambda: cuda.elementwise('T x', 'T y', 'y = x', 'copy_kernel'),
     lambda: cuda.reduce('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'sum_k'),
     lambda: cuda.raw('extern "C" __global__ void k() {}', 'k'),
     lambda: cuda.GpuDevice(cuda.Device(0)),
     lambda: cuda.GpuDevice.from_device_id(0),
     lambda: cuda.get_device_from_id(0),
     lambda: cuda._get_cuda_device(1)],
    ids=['to_gpu', 'to_gpu-none', 'to_gpu-list', 'copy', 'elementwise',
         'reduce', 'raw', 'GpuDevice', 'from_device_id',
         'get_device_from_id', 'get_cuda_device-int'])
def test_gpu_calls_raise_clear_error_without_cupy(call):
    with pytest.raises(RuntimeError, match='CUDA environment is not'):
        call()


@no_cupy
def test_memoize_is_a_plain_wrapper_without_cupy():
    calls = []

    @cuda.memoize(for_each_device=True)
    def f(x, y=1):
        """Docstring kept."""
        calls.append((x, y))
        return [x, y]

    assert f(1, y=2) == [1, 2]
    assert f(1, y=2) == [1, 2]
    assert calls == [(1, 2), (1, 2)]
    assert f.__doc__ == 'Docstring kept.'
    assert cuda.clear_memo() is None


@no_cupy
def test_fuse_without_cupy_returns_function():
    def f(x):
        return x * 2

    assert cuda.fuse(f) is f
    assert cuda.fuse()(f) is f
    assert cuda.fuse(kernel_name='double')(f) is f


@no_cupy
def test_cudnn_helpers_without_cudnn():
    assert cuda.get_max_workspace_size() == 0
    assert cuda.set_max_workspace_size(1 << 20) is None
    assert cuda.get_max_workspace_size() == 0
    with pytest.raises(RuntimeError, match='cuDNN is not enabled'):
        cuda.get_cudnn_dropout_states()
    with configuration.using_config('use_cudnn_tensor_core', 'auto'):
        assert cuda.should_use_cudnn_tensor_core(numpy.float16) is False


@no_cupy
@pytest.mark.parametrize('level', ['==always', '>=auto', 'invalid'])
@pytest.mark.parametrize('setting', ['always', 'auto', 'never', 'invalid'])
def test_should_use_cudnn_is_false_without_cudnn(level, setting):
    with configuration.using_config('use_cudnn', setting):
        assert cuda.should_use_cudnn(level) is False


# ---------------------------------------------------------------------------
# Independent of CuPy
# ---------------------------------------------------------------------------

def test_dummy_device():
    dummy = cuda.DummyDevice
    assert isinstance(dummy, cuda.DummyDeviceType)
    assert dummy.id == -1
    assert int(dummy) == -1
    assert dummy == cuda.DummyDeviceType()
    assert dummy != -1
    assert not (dummy != cuda.DummyDeviceType())
    with dummy as entered:
        assert entered is dummy
    assert dummy.use() is None
    assert dummy.synchronize() is None


@pytest.mark.parametrize(
    'device_id', [None, -1, numpy.int64(-2)], ids=['none', 'minus-one',
                                                   'numpy-minus-two'])
def test_get_device_from_id_cpu(device_id):
    assert cuda.get_device_from_id(device_id) is cuda.DummyDevice


@pytest.mark.parametrize(
    'arrays', [(), (numpy.zeros(1),), (None, 1.0)],
    ids=['nothing', 'numpy', 'none-float'])
def test_get_device_from_array_cpu(arrays):
    assert cuda.get_device_from_array(*arrays) is cuda.DummyDevice


def test_get_device_is_deprecated():
    with pytest.warns(DeprecationWarning, match='get_device is deprecated'):
        device = cuda.get_device(numpy.zeros(1), 'x', None)
    assert device is cuda.DummyDevice


def test_get_array_module_cpu():
    assert cuda.get_array_module(numpy.zeros(1), None) is numpy
    assert cuda.get_array_module() is numpy


def test_to_cpu_cpu_inputs():
    a = numpy.arange(3)
    assert cuda.to_cpu(a) is a
    assert cuda.to_cpu(a, stream=None) is a
    assert cuda.to_cpu(None) is None
    listed = cuda.to_cpu([a, None])
    assert type(listed) is list
    assert listed[0] is a and listed[1] is None
    assert type(cuda.to_cpu((a,))) is tuple
    scalar = cuda.to_cpu(numpy.float32(1.5))
    assert isinstance(scalar, numpy.ndarray)
    assert scalar.dtype == numpy.float32 and scalar.shape == ()
    with pytest.raises(TypeError):
        cuda.to_cpu({'a': a})


def test_integer_types():
    assert isinstance(3, cuda._integer_types)
    assert isinstance(numpy.int16(3), cuda._integer_types)
    assert not isinstance(3.0, cuda._integer_types)


def test_should_use_cudnn_tensor_core_validates_config():
    with configuration.using_config('use_cudnn_tensor_core', 'bad'), \
            pytest.raises(ValueError, match='use_cudnn_tensor_core'):
        cuda.should_use_cudnn_tensor_core(numpy.float16)
    with configuration.using_config('use_cudnn_tensor_core', 'never'):
        assert cuda.should_use_cudnn_tensor_core(numpy.float16) is False
    with configuration.using_config('use_cudnn_tensor_core', 'always'):
        assert cuda.should_use_cudnn_tensor_core(numpy.float16) is True


# ---------------------------------------------------------------------------
# GPU
# ---------------------------------------------------------------------------

@gpu_test()
def test_gpu_module_state():
    import cupy
    assert cuda.available is True
    assert cuda.cupy is cupy
    assert cuda.ndarray is cupy.ndarray
    assert cuda.Device is cupy.cuda.Device
    assert cuda.GpuDevice.xp is cupy


@gpu_test()
def test_gpu_to_gpu_and_back():
    cupy = cuda.cupy
    a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    g = cuda.to_gpu(a)
    assert isinstance(g, cupy.ndarray)
    assert g.device.id == 0
    assert cuda.to_gpu(g) is g
    numpy.testing.assert_array_equal(cuda.to_cpu(g), a)
    both = cuda.to_gpu((a, None, a))
    assert type(both) is tuple
    assert both[1] is None
    assert both[0] is both[2]
    scalar = cuda.to_gpu(numpy.float32(3))
    assert isinstance(scalar, cupy.ndarray) and scalar.shape == ()
    with pytest.raises(TypeError, match='must be an array'):
        cuda.to_gpu(3)
    with pytest.raises(ValueError, match='Invalid CUDA device'):
        cuda.to_gpu(a, device=-1)


@gpu_test()
def test_gpu_to_gpu_stream_is_deprecated():
    cupy = cuda.cupy
    stream = cupy.cuda.Stream()
    with pytest.warns(DeprecationWarning, match='stream option'):
        g = cuda.to_gpu(numpy.ones(3), stream=stream)
    stream.synchronize()
    numpy.testing.assert_array_equal(g.get(), numpy.ones(3))


@gpu_test()
def test_gpu_device_objects():
    cupy = cuda.cupy
    device = cuda.GpuDevice.from_device_id(0)
    assert device.device == cupy.cuda.Device(0)
    assert device == cuda.GpuDevice(cupy.cuda.Device(0))
    assert device == backend.get_device('@cupy:0')
    assert cuda.GpuDevice.from_array(numpy.zeros(1)) is None
    assert cuda.GpuDevice.from_array(cupy.zeros(1)) == device
    with pytest.raises(ValueError, match='Invalid CUDA device ID'):
        cuda.GpuDevice.from_device_id(-1)
    with pytest.raises(TypeError):
        cuda.GpuDevice(0)
    with device.create_context():
        assert cupy.cuda.Device().id == 0
    assert cuda.get_device_from_id(0) == cupy.cuda.Device(0)
    assert cuda.get_device_from_array(cupy.zeros(1)) == cupy.cuda.Device(0)


@gpu_test()
def test_gpu_copy_and_array_module():
    cupy = cuda.cupy
    g = cupy.arange(4, dtype=numpy.float32)
    c = cuda.copy(g)
    assert c is not g
    numpy.testing.assert_array_equal(c.get(), [0, 1, 2, 3])
    out = cupy.zeros(4, numpy.float32)
    assert cuda.copy(g, out=out) is out
    numpy.testing.assert_array_equal(out.get(), [0, 1, 2, 3])
    assert cuda.get_array_module(g) is cupy
    assert cuda.get_array_module(numpy.zeros(1)) is numpy


@gpu_test()
def test_gpu_kernels_are_memoized():
    cupy = cuda.cupy
    kernel = cuda.elementwise('T x', 'T y', 'y = x * 2', 'chainer_test_dbl')
    assert kernel is cuda.elementwise(
        'T x', 'T y', 'y = x * 2', 'chainer_test_dbl')
    numpy.testing.assert_array_equal(
        kernel(cupy.arange(3, dtype=numpy.float32)).get(), [0, 2, 4])
    total = cuda.reduce('T x', 'T y', 'x', 'a + b', 'y = a', '0',
                        'chainer_test_sum')
    assert float(total(cupy.arange(4, dtype=numpy.float32))) == 6.0


@pytest.mark.cudnn
@gpu_test()
def test_gpu_should_use_cudnn_follows_config():
    if not cuda.cudnn_enabled:
        pytest.skip('cuDNN is not enabled')
    with configuration.using_config('use_cudnn', 'auto'):
        assert cuda.should_use_cudnn('>=auto') is True
        assert cuda.should_use_cudnn('==always') is False
        assert cuda.should_use_cudnn('>=auto', 10 ** 9) is False
    with configuration.using_config('use_cudnn', 'never'):
        assert cuda.should_use_cudnn('>=auto') is False
    with configuration.using_config('use_cudnn', 'bad'), \
            pytest.raises(ValueError, match='use_cudnn configuration'):
        cuda.should_use_cudnn('>=auto')
    with pytest.raises(ValueError, match='cuDNN use level'):
        cuda.should_use_cudnn('auto')


@gpu_test(min_devices=2)
def test_gpu_to_gpu_across_devices():
    cupy = cuda.cupy
    g0 = cupy.arange(3)
    g1 = cuda.to_gpu(g0, device=1)
    assert g1.device.id == 1
    assert g1 is not g0
    numpy.testing.assert_array_equal(g1.get(), [0, 1, 2])
    c = cuda.copy(g0, out_device=1)
    assert c.device.id == 1
    numpy.testing.assert_array_equal(c.get(), [0, 1, 2])


def test_cupy_sentinel_and_module_alias():
    import subprocess
    import sys
    assert cuda.cupy is not None
    assert cuda.cupy is not numpy
    code = 'import chainer.cuda; chainer.cuda.get_device_from_id'
    subprocess.run([sys.executable, '-c', code], check=True)
    from chainer import cuda as alias
    assert alias is cuda
