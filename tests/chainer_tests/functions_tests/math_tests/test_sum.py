import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check


DTYPES = [numpy.float16, numpy.float32, numpy.float64]
AXES = [None, 0, 1, 2, -1, (0, 1), (1, 0), (0, -1), (0, 1, 2)]


def _tols(dtype):
    if dtype == numpy.float16:
        return ({'atol': 1e-2, 'rtol': 1e-2},
                {'dtype': numpy.float64, 'atol': 2e-2, 'rtol': 2e-2})
    return ({'atol': 1e-6, 'rtol': 1e-6},
            {'dtype': numpy.float64, 'atol': 1e-4, 'rtol': 1e-4})


@pytest.mark.parametrize('axis', AXES, ids=str)
@pytest.mark.parametrize('keepdims', [False, True])
@pytest.mark.parametrize('dtype', DTYPES)
class TestSum:

    def test_forward(self, axis, keepdims, dtype):
        x = numpy.random.uniform(-1, 1, (3, 2, 4)).astype(dtype)
        y = F.sum(x, axis=axis, keepdims=keepdims)
        expected = x.astype(numpy.float64).sum(axis=axis, keepdims=keepdims)
        assert isinstance(y.array, numpy.ndarray)
        assert y.dtype == dtype
        assert y.shape == expected.shape
        testing.assert_allclose(y.array, expected, **_tols(dtype)[0])

    def test_backward(self, axis, keepdims, dtype):
        x = numpy.random.uniform(-1, 1, (3, 2, 4)).astype(dtype)
        y_shape = x.sum(axis=axis, keepdims=keepdims).shape
        gy = numpy.random.uniform(-1, 1, y_shape).astype(dtype)
        ggx = numpy.random.uniform(-1, 1, x.shape).astype(dtype)

        def f(v):
            return F.sum(v, axis=axis, keepdims=keepdims)
        tol = _tols(dtype)[1]
        gradient_check.check_backward(f, x, gy, **tol)
        gradient_check.check_double_backward(f, x, gy, ggx, **tol)


@pytest.mark.parametrize('keepdims', [False, True])
def test_zero_dimensional(keepdims):
    x = numpy.array(2.5, numpy.float32)
    y = F.sum(x, keepdims=keepdims)
    assert isinstance(y.array, numpy.ndarray)
    assert y.shape == ()
    assert float(y.array) == 2.5
    gradient_check.check_backward(
        lambda v: F.sum(v, keepdims=keepdims), x,
        numpy.array(1.5, numpy.float32), dtype=numpy.float64)


def test_full_sum_returns_array():
    y = F.sum(numpy.ones((2, 3), numpy.float32))
    assert isinstance(y.array, numpy.ndarray)
    assert y.shape == ()
    assert float(y.array) == 6.0


def test_gradient_broadcasts_back():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = F.sum(x, axis=1)
    y.grad = numpy.array([2.0, 3.0], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[2, 2, 2], [3, 3, 3]])


@pytest.mark.parametrize('axis', [2, -3, (0, 2)], ids=str)
def test_axis_out_of_range(axis):
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.sum(x, axis=axis)


def test_integer_input_refused():
    with pytest.raises(type_check.InvalidType):
        F.sum(numpy.ones((2, 3), numpy.int32))


def test_duplicate_axis():
    with pytest.raises(ValueError, match='duplicate value in axis'):
        F.sum(numpy.ones((2, 3), numpy.float32), axis=(0, 0))


@pytest.mark.parametrize('axis', [[0], 1.0, numpy.int64(0), (0, 1.0)],
                         ids=['list', 'float', 'numpy_int', 'tuple_float'])
def test_bad_axis_type(axis):
    with pytest.raises(TypeError, match='None, int or tuple of int'):
        F.sum(numpy.ones((2, 3), numpy.float32), axis=axis)


SUM_TO_CASES = [
    ((3, 4), (1, 4)),
    ((3, 4), (3, 1)),
    ((3, 4), (4,)),
    ((2, 3, 4), (3, 1)),
    ((2, 3, 4), ()),
    ((2, 3, 4), (1, 1, 1)),
]


@pytest.mark.parametrize('in_shape, out_shape', SUM_TO_CASES,
                         ids=['{}-{}'.format(a, b).replace(' ', '')
                              for a, b in SUM_TO_CASES])
@pytest.mark.parametrize('dtype', DTYPES)
class TestSumTo:

    def test_forward(self, in_shape, out_shape, dtype):
        x = numpy.random.uniform(-1, 1, in_shape).astype(dtype)
        y = F.sum_to(chainer.Variable(x), out_shape)
        assert type(y.creator).__name__ == 'SumTo'
        assert y.shape == out_shape
        assert y.dtype == dtype
        # broadcast back and check the totals along summed axes
        lead = len(in_shape) - len(out_shape)
        axes = tuple(range(lead)) + tuple(
            lead + i for i, d in enumerate(out_shape)
            if d == 1 and in_shape[lead + i] != 1)
        expected = x.astype(numpy.float64).sum(axes, keepdims=True)
        expected = expected.reshape(out_shape)
        testing.assert_allclose(y.array, expected, **_tols(dtype)[0])

    def test_backward(self, in_shape, out_shape, dtype):
        x = numpy.random.uniform(-1, 1, in_shape).astype(dtype)
        gy = numpy.random.uniform(-1, 1, out_shape).astype(dtype)
        ggx = numpy.random.uniform(-1, 1, in_shape).astype(dtype)

        def f(v):
            return F.sum_to(v, out_shape)
        tol = _tols(dtype)[1]
        gradient_check.check_backward(f, x, gy, **tol)
        gradient_check.check_double_backward(f, x, gy, ggx, **tol)


def test_sum_to_same_shape_adds_no_node():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    assert F.sum_to(x, (2, 3)) is x
    y = F.sum_to(numpy.ones((2, 3), numpy.float32), (2, 3))
    assert isinstance(y, chainer.Variable)
    assert y.creator is None


@attr.gpu
@pytest.mark.parametrize('axis', AXES, ids=str)
def test_sum_gpu(axis):
    x = numpy.random.uniform(-1, 1, (3, 2, 4)).astype(numpy.float32)
    y = F.sum(cuda.to_gpu(x), axis=axis)
    assert isinstance(y.array, cuda.ndarray)
    testing.assert_allclose(y.array, x.sum(axis=axis), atol=1e-5,
                            rtol=1e-5)
    gy = cuda.to_gpu(numpy.random.uniform(
        -1, 1, x.sum(axis=axis).shape).astype(numpy.float32))
    gradient_check.check_backward(
        lambda v: F.sum(v, axis=axis), cuda.to_gpu(x), gy,
        atol=1e-3, rtol=1e-3)


@attr.gpu
def test_sum_to_gpu():
    x = numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32)
    y = F.sum_to(cuda.to_gpu(x), (3, 1))
    testing.assert_allclose(y.array, x.sum(axis=(0, 2)).reshape(3, 1),
                            atol=1e-5, rtol=1e-5)
