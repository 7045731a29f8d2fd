import numpy
import pytest

import chainer
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

CASES = [
    ((2, 3), None),
    ((2, 3), (1, 0)),
    ((2, 3, 4), None),
    ((2, 3, 4), (1, 2, 0)),
    ((2, 3, 4), (2, 0, 1)),
    ((2, 3, 4), (-1, 0, 1)),
    ((2, 3, 4), [0, 2, 1]),
    ((), None),
    ((), ()),
    ((3,), (0,)),
]
IDS = ['{}-{}'.format(a, b).replace(' ', '') for a, b in CASES]


@pytest.mark.parametrize('shape, axes', CASES, ids=IDS)
@pytest.mark.parametrize('dtype', DTYPES)
class TestTranspose:

    def test_forward(self, shape, axes, dtype):
        x = numpy.random.uniform(-1, 1, shape).astype(dtype)
        y = F.transpose(chainer.Variable(x), axes)
        expected = x.transpose(axes)
        assert type(y.creator).__name__ == 'Transpose'
        assert y.creator.label == 'Transpose'
        assert y.dtype == dtype
        assert y.shape == expected.shape
        numpy.testing.assert_array_equal(y.array, expected)

    def test_backward(self, shape, axes, dtype):
        x = numpy.random.uniform(-1, 1, shape).astype(dtype)
        y_shape = x.transpose(axes).shape
        gy = numpy.random.uniform(-1, 1, y_shape).astype(dtype)
        ggx = numpy.random.uniform(-1, 1, shape).astype(dtype)

        def f(v):
            return F.transpose(v, axes)
        gradient_check.check_backward(f, x, gy, **_tol(dtype))
        gradient_check.check_double_backward(
            f, x, gy, ggx, **_tol(dtype))


def test_gradient_is_inverse_permutation():
    x = chainer.Variable(numpy.zeros((2, 3, 4), numpy.float32))
    y = F.transpose(x, (1, 2, 0))
    gy = numpy.random.uniform(-1, 1, (3, 4, 2)).astype(numpy.float32)
    y.grad = gy
    y.backward()
    numpy.testing.assert_array_equal(x.grad, gy.transpose(2, 0, 1))


def test_no_copy():
    x = numpy.zeros((2, 3), numpy.float32)
    assert numpy.shares_memory(x, F.transpose(x).array)


def test_variable_property_and_method():
    x = chainer.Variable(numpy.zeros((2, 3, 4), numpy.float32))
    assert x.T.shape == (4, 3, 2)
    assert x.transpose(1, 0, 2).shape == (3, 2, 4)
    assert x.transpose().shape == (4, 3, 2)


@pytest.mark.parametrize('axes', [(0, 0), (0, 1, 2), (0, 2)], ids=str)
def test_invalid_axes(axes):
    with pytest.raises(ValueError):
        F.transpose(numpy.zeros((2, 3), numpy.float32), axes)


@attr.gpu
def test_gpu():
    x = numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32)
    y = F.transpose(cuda.to_gpu(x), (2, 0, 1))
    assert isinstance(y.array, cuda.ndarray)
    numpy.testing.assert_array_equal(cuda.to_cpu(y.array),
                                     x.transpose(2, 0, 1))
    gy = cuda.to_gpu(numpy.ones((4, 2, 3), numpy.float32))
    gradient_check.check_backward(
        lambda v: F.transpose(v, (2, 0, 1)), cuda.to_gpu(x), gy)
