import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer import gradient_check
from chainer.testing import attr
from chainer.utils import type_check


DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def _tol(dtype):
    # Numerical gradients in float64; float16 backward rounds more.
    if dtype == numpy.float16:
        return {'dtype': numpy.float64, 'atol': 1e-2, 'rtol': 1e-2}
    return {'dtype': numpy.float64}

CASES = [
    ((4, 3), (3, 4)),
    ((4, 3), (12,)),
    ((4, 3), (-1,)),
    ((4, 3), (2, -1, 3)),
    ((2, 3, 2), (-1, 2)),
    ((), (1, 1)),
    ((1,), ()),
    ((4, 3), [6, 2]),
]
IDS = ['{}-{}'.format(a, b).replace(' ', '') for a, b in CASES]


@pytest.mark.parametrize('in_shape, out_shape', CASES, ids=IDS)
@pytest.mark.parametrize('dtype', DTYPES)
class TestReshape:

    def test_forward(self, in_shape, out_shape, dtype):
        x = numpy.random.uniform(-1, 1, in_shape).astype(dtype)
        y = F.reshape(chainer.Variable(x), out_shape)
        expected = x.reshape(out_shape)
        assert type(y.creator).__name__ == 'Reshape'
        assert y.dtype == dtype
        assert y.shape == expected.shape
        numpy.testing.assert_array_equal(y.array, expected)

    def test_backward(self, in_shape, out_shape, dtype):
        x = numpy.random.uniform(-1, 1, in_shape).astype(dtype)
        y_shape = x.reshape(out_shape).shape
        gy = numpy.random.uniform(-1, 1, y_shape).astype(dtype)
        ggx = numpy.random.uniform(-1, 1, in_shape).astype(dtype)

        def f(v):
            return F.reshape(v, out_shape)
        gradient_check.check_backward(f, x, gy, **_tol(dtype))
        gradient_check.check_double_backward(
            f, x, gy, ggx, **_tol(dtype))


def test_no_copy():
    x = numpy.zeros((2, 3), numpy.float32)
    y = F.reshape(x, (3, 2))
    assert numpy.shares_memory(x, y.array)


def test_same_shape_adds_no_node():
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    assert F.reshape(x, (2, 3)) is x


def test_variable_method():
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32))
    assert x.reshape(2, 3).shape == (2, 3)
    assert x.reshape((3, -1)).shape == (3, 2)


def test_gradient_has_input_shape():
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    y = F.reshape(x, (6,))
    y.grad = numpy.arange(6, dtype=numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(
        x.grad, numpy.arange(6).reshape(2, 3))


@pytest.mark.parametrize('shape', [(4, 3), (-1, 4), (5,)], ids=str)
def test_invalid_size(shape):
    with pytest.raises(type_check.InvalidType):
        F.reshape(numpy.zeros((2, 3), numpy.float32), shape)


def test_two_unknown_dims():
    with pytest.raises(AssertionError):
        F.reshape(numpy.zeros((2, 3), numpy.float32), (-1, -1))


@attr.gpu
def test_gpu():
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    y = F.reshape(cuda.to_gpu(x), (2, -1))
    assert isinstance(y.array, cuda.ndarray)
    numpy.testing.assert_array_equal(cuda.to_cpu(y.array), x.reshape(2, 6))
    gy = cuda.to_gpu(numpy.ones((2, 6), numpy.float32))
    gradient_check.check_backward(
        lambda v: F.reshape(v, (2, -1)), cuda.to_gpu(x), gy)
