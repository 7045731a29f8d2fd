import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer import gradient_check
from chainer.testing import attr


FLOATS = [numpy.float16, numpy.float32, numpy.float64]


@pytest.mark.parametrize('in_type', FLOATS)
@pytest.mark.parametrize('out_type', FLOATS)
@pytest.mark.parametrize('shape', [(3, 2), ()])
class TestCastFloat:

    def test_forward(self, in_type, out_type, shape):
        x = numpy.random.uniform(-1, 1, shape).astype(in_type)
        y = F.cast(chainer.Variable(x), out_type)
        assert type(y.creator).__name__ == 'Cast'
        assert y.dtype == out_type
        assert y.shape == shape
        numpy.testing.assert_array_equal(y.array, x.astype(out_type))

    def test_backward(self, in_type, out_type, shape):
        x = numpy.random.uniform(-1, 1, shape).astype(in_type)
        gy = numpy.random.uniform(-1, 1, shape).astype(out_type)
        ggx = numpy.random.uniform(-1, 1, shape).astype(in_type)

        def f(v):
            return F.cast(v, out_type)
        if numpy.float16 in (in_type, out_type):
            tol = {'atol': 5e-2, 'rtol': 5e-2, 'eps': 2 ** -4}
        else:
            tol = {'atol': 1e-4, 'rtol': 1e-4}
        gradient_check.check_backward(f, x, gy, **tol)
        gradient_check.check_double_backward(f, x, gy, ggx, **tol)


def test_gradient_is_cast_back():
    x = chainer.Variable(numpy.array([1.0, 2.0], numpy.float16))
    y = F.cast(x, numpy.float64)
    y.grad = numpy.array([0.5, 0.25])
    y.backward()
    assert x.grad.dtype == numpy.float16
    numpy.testing.assert_array_equal(x.grad, [0.5, 0.25])


@pytest.mark.parametrize('typ', ['float32', numpy.dtype('float32'),
                                 numpy.float32], ids=['str', 'dtype', 'type'])
def test_dtype_specifiers(typ):
    y = F.cast(numpy.ones(3, numpy.float64), typ)
    assert y.dtype == numpy.float32


def test_cast_to_integer():
    x = numpy.array([1.7, -2.2, 3.0], numpy.float32)
    y = F.cast(x, numpy.int32)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, [1, -2, 3])


def test_integer_input_gets_no_gradient():
    x = chainer.Variable(numpy.array([1, 2], numpy.int32))
    y = F.cast(x, numpy.float32)
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    assert x.grad is None


def test_same_dtype_with_backprop_makes_node():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    y = F.cast(x, numpy.float32)
    assert y is not x
    assert type(y.creator).__name__ == 'Cast'
    assert y.array is x.array


def test_same_dtype_without_backprop_returns_input():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    with chainer.no_backprop_mode():
        assert F.cast(x, numpy.float32) is x
        y = F.cast(x.array, 'float32')
    assert isinstance(y, chainer.Variable)
    assert y.array is x.array


@attr.gpu
def test_gpu():
    x = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)
    y = F.cast(cuda.to_gpu(x), numpy.float64)
    assert isinstance(y.array, cuda.ndarray)
    assert y.dtype == numpy.float64
    gy = cuda.to_gpu(numpy.ones((3, 2), numpy.float64))
    gradient_check.check_backward(
        lambda v: F.cast(v, numpy.float64), cuda.to_gpu(x), gy,
        atol=1e-3, rtol=1e-3)
