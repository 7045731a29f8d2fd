import numpy
import pytest

import chainer
from chainer import backend
from chainer.backends import cuda
from chainer import functions as F
from chainer import gradient_check
from chainer.testing import attr


DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def _tol(dtype):
    # Numerical gradients in float64; float16 backward rounds more.
    if dtype == numpy.float16:
        return {'dtype': numpy.float64, 'atol': 1e-2, 'rtol': 1e-2}
    return {'dtype': numpy.float64}


@pytest.mark.parametrize('dst', [-1, '@numpy'], ids=['minus_one', 'numpy'])
@pytest.mark.parametrize('dtype', DTYPES)
class TestCopyCpu:

    def test_forward(self, dst, dtype):
        x = numpy.random.uniform(-1, 1, (3, 2)).astype(dtype)
        y = F.copy(chainer.Variable(x), dst)
        assert type(y.creator).__name__ == 'Copy'
        assert isinstance(y.array, numpy.ndarray)
        assert y.dtype == dtype
        numpy.testing.assert_array_equal(y.array, x)

    def test_backward(self, dst, dtype):
        x = numpy.random.uniform(-1, 1, (3, 2)).astype(dtype)
        gy = numpy.random.uniform(-1, 1, (3, 2)).astype(dtype)
        ggx = numpy.random.uniform(-1, 1, (3, 2)).astype(dtype)

        def f(v):
            return F.copy(v, dst)
        gradient_check.check_backward(f, x, gy, **_tol(dtype))
        gradient_check.check_double_backward(
            f, x, gy, ggx, **_tol(dtype))


def test_device_object_and_dummy_device():
    x = numpy.ones((2, 2), numpy.float32)
    y = F.copy(x, backend.CpuDevice())
    assert isinstance(y.array, numpy.ndarray)
    y = F.copy(x, cuda.DummyDevice)
    assert isinstance(y.array, numpy.ndarray)


def test_gradient_flows_back():
    x = chainer.Variable(numpy.array([1.0, 2.0], numpy.float32))
    y = F.copy(x, '@numpy')
    y.grad = numpy.array([3.0, 4.0], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [3.0, 4.0])


def test_invalid_device_specifier():
    with pytest.raises((TypeError, ValueError)):
        F.copy(numpy.ones(2, numpy.float32), numpy)


@attr.gpu
def test_cpu_to_gpu_and_back():
    x = chainer.Variable(
        numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32))
    y = F.copy(x, '@cupy:0')
    assert isinstance(y.array, cuda.ndarray)
    numpy.testing.assert_array_equal(cuda.to_cpu(y.array), x.array)
    y.grad = cuda.cupy.ones((3, 2), numpy.float32)
    y.backward()
    assert isinstance(x.grad, numpy.ndarray)
    numpy.testing.assert_array_equal(x.grad, numpy.ones((3, 2)))


@attr.gpu
def test_gpu_to_cpu():
    x = chainer.Variable(cuda.to_gpu(numpy.ones((3, 2), numpy.float32)))
    y = F.copy(x, -1)
    assert isinstance(y.array, numpy.ndarray)
    y.grad = numpy.full((3, 2), 2, numpy.float32)
    y.backward()
    assert isinstance(x.grad, cuda.ndarray)
    numpy.testing.assert_array_equal(cuda.to_cpu(x.grad),
                                     numpy.full((3, 2), 2))


@attr.multi_gpu(2)
def test_gpu_to_gpu():
    x = chainer.Variable(cuda.to_gpu(numpy.ones((3, 2), numpy.float32), 0))
    y = F.copy(x, 1)
    assert y.array.device.id == 1
    y.grad = cuda.to_gpu(numpy.ones((3, 2), numpy.float32), 1)
    y.backward()
    assert x.grad.device.id == 0
