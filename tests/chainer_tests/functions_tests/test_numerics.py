"""The shared array numerics against plain NumPy restatements."""

import warnings

import numpy
import pytest

from chainer.backends import cuda
from chainer.functions import _numerics
from chainer.testing import attr


INF = numpy.inf
NAN = numpy.nan

# Rows of a finite maximum (some holding -inf) and rows whose maximum is
# infinite: Chainer 7.8 shifts the latter by that maximum as well, which
# makes the whole row NaN (-inf - (-inf) and inf - inf are NaN).
_FINITE_ROWS = [[0., 1., 2.], [-INF, 0., 3.], [-INF, -INF, 5.],
                [1000., 1000., -1000.]]
_INFINITE_ROWS = [[-INF, -INF, -INF], [INF, 0., 1.], [INF, INF, -INF],
                  [NAN, 0., 1.]]


def _plain_softmax(x, axis):
    # exp(x) / sum(exp(x)) in float64, without any shift: fine for the
    # moderate values it is given here.
    e = numpy.exp(x.astype(numpy.float64))
    return e / e.sum(axis=axis, keepdims=True)


def _plain_logsumexp(x, axis):
    return numpy.log(numpy.exp(x.astype(numpy.float64)).sum(
        axis=axis, keepdims=True))


def _quietly(f, *args, **kwargs):
    with numpy.errstate(invalid='ignore'):
        return f(*args, **kwargs)


# float16: x - max(x) is rounded to float16 before the exponential, half a
# unit of 2**-8 for differences between 4 and 6, which the exponential
# makes a relative error of up to 0.2 %; the exponential and the division
# in float16 add one rounding each, and the result depends on the CPU's
# exponential (3.2e-3 seen on one machine).
_TOLERANCE = {numpy.float16: 1e-2, numpy.float32: 1e-6,
              numpy.float64: 1e-12}


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('axis', [0, 1, -1])
class TestSoftmaxFamily:

    def _x(self, dtype):
        rng = numpy.random.RandomState(1)
        return rng.uniform(-3, 3, (3, 4, 5)).astype(dtype)

    def test_softmax(self, dtype, axis):
        x = self._x(dtype)
        y = _numerics.softmax(x, axis)
        assert y.dtype == dtype and y.shape == x.shape
        numpy.testing.assert_allclose(
            y, _plain_softmax(x, axis), rtol=_TOLERANCE[dtype])

    def test_log_softmax(self, dtype, axis):
        x = self._x(dtype)
        y = _numerics.log_softmax(x, axis)
        assert y.dtype == dtype and y.shape == x.shape
        numpy.testing.assert_allclose(
            y, x - _plain_logsumexp(x, axis), rtol=_TOLERANCE[dtype],
            atol=_TOLERANCE[dtype])

    def test_logsumexp(self, dtype, axis):
        x = self._x(dtype)
        y = _numerics.logsumexp(x, axis)
        assert y.dtype == dtype
        numpy.testing.assert_allclose(
            y, _plain_logsumexp(x, axis), rtol=_TOLERANCE[dtype],
            atol=_TOLERANCE[dtype])

    def test_exp_shifted(self, dtype, axis):
        x = self._x(dtype)
        e, s, m = _numerics.exp_shifted(x, axis)
        numpy.testing.assert_array_equal(m, x.max(axis=axis, keepdims=True))
        numpy.testing.assert_allclose(
            e, numpy.exp(x.astype(numpy.float64) - m),
            rtol=_TOLERANCE[dtype])
        numpy.testing.assert_allclose(
            s, e.sum(axis=axis, keepdims=True, dtype=numpy.float64),
            rtol=_TOLERANCE[dtype])
        assert e.dtype == s.dtype == dtype


def test_finite_rows():
    x = numpy.array(_FINITE_ROWS, numpy.float32)
    finite = x[:3]
    numpy.testing.assert_allclose(
        _numerics.softmax(finite, 1), _plain_softmax(finite, 1), rtol=1e-6)
    with numpy.errstate(divide='ignore'):
        log_p = numpy.log(_plain_softmax(finite, 1))
    numpy.testing.assert_allclose(
        _numerics.log_softmax(finite, 1), log_p, rtol=1e-6)
    numpy.testing.assert_allclose(
        _numerics.logsumexp(finite, 1), _plain_logsumexp(finite, 1),
        rtol=1e-6)
    # The shift keeps large values from overflowing.
    big = x[3:]
    numpy.testing.assert_allclose(
        _numerics.logsumexp(big, 1), [[1000 + numpy.log(2)]], rtol=1e-6)
    numpy.testing.assert_allclose(
        _numerics.softmax(big, 1), [[.5, .5, 0.]], rtol=1e-6)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_rows_with_an_infinite_maximum_are_nan(dtype):
    x = numpy.array(_INFINITE_ROWS, dtype)
    nan = numpy.full(x.shape, NAN)
    numpy.testing.assert_array_equal(_quietly(_numerics.softmax, x, 1), nan)
    numpy.testing.assert_array_equal(
        _quietly(_numerics.log_softmax, x, 1), nan)
    numpy.testing.assert_array_equal(
        _quietly(_numerics.logsumexp, x, 1), nan[:, :1])


def test_rows_are_independent():
    # An infinite row does not spoil its finite neighbours.
    x = numpy.array(_FINITE_ROWS[:3] + _INFINITE_ROWS, numpy.float64)
    y = _quietly(_numerics.softmax, x, 1)
    numpy.testing.assert_allclose(y[:3], _plain_softmax(x[:3], 1))
    assert numpy.isnan(y[3:]).all()


def test_logsumexp_of_several_axes_and_of_all():
    x = numpy.random.RandomState(2).uniform(-1, 1, (2, 3, 4))
    numpy.testing.assert_allclose(
        _numerics.logsumexp(x, (0, 2)), _plain_logsumexp(x, (0, 2)))
    y = _numerics.logsumexp(x, None)
    assert y.shape == (1, 1, 1)
    numpy.testing.assert_allclose(y, _plain_logsumexp(x, None))


def test_logsumexp_of_a_zero_dimensional_array():
    y = _numerics.logsumexp(numpy.array(3., numpy.float32), None)
    assert isinstance(y, numpy.ndarray)
    assert y.shape == () and y == 3


def test_sum_in_a_wider_dtype():
    x = numpy.full((2, 4096), 1, numpy.float16)
    _, s, _ = _numerics.exp_shifted(x, 1, numpy.float32)
    assert s.dtype == numpy.float32
    numpy.testing.assert_array_equal(s, [[4096], [4096]])
    y = _numerics.logsumexp(x, 1, numpy.float32)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y, 1 + numpy.log(4096), rtol=1e-6)
    y = _numerics.log_softmax(x, 1, numpy.float32)
    assert y.dtype == numpy.float32


def test_log_of_shifted_sum():
    s = numpy.array([[1.], [4.]])
    m = numpy.array([[2.], [-1.]])
    expected = numpy.log(s) + m
    y = _numerics.log_of_shifted_sum(s, m)
    numpy.testing.assert_array_equal(y, expected)
    assert y is not s
    y = _numerics.log_of_shifted_sum(s, m, out=s)
    assert y is s
    numpy.testing.assert_array_equal(s, expected)


def test_empty_softmax_axis():
    x = numpy.zeros((2, 0), numpy.float32)
    for f in (_numerics.softmax, _numerics.log_softmax):
        y = f(x, 1)
        assert y.shape == (2, 0) and y is not x


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_sigmoid(dtype):
    x = numpy.linspace(-30, 30, 121).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = _numerics.sigmoid(x)
    assert y.dtype == dtype and y is not x
    expected = 1 / (1 + numpy.exp(-x.astype(numpy.float64)))
    numpy.testing.assert_allclose(y, expected, rtol=_TOLERANCE[dtype] * 2,
                                  atol=_TOLERANCE[dtype])


def test_sigmoid_of_extreme_values():
    x = numpy.array([-INF, -1e30, 0, 1e30, INF], numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = _numerics.sigmoid(x)
    numpy.testing.assert_array_equal(y, [0, 0, .5, 1, 1])


def test_sigmoid_in_place_and_layout():
    x = numpy.asfortranarray(
        numpy.random.RandomState(3).randn(3, 4).astype(numpy.float32))
    expected = 1 / (1 + numpy.exp(-x.astype(numpy.float64)))
    y = _numerics.sigmoid(x)
    assert y.flags.f_contiguous
    numpy.testing.assert_allclose(y, expected, rtol=1e-6)
    z = _numerics.sigmoid(x, out=x)
    assert z is x
    numpy.testing.assert_allclose(x, expected, rtol=1e-6)


def test_sigmoid_of_a_zero_dimensional_array():
    y = _numerics.sigmoid(numpy.array(0., numpy.float32))
    assert isinstance(y, numpy.ndarray) and y.shape == () and y == .5


def test_add_at_sums_repeated_indices():
    a = numpy.zeros((4, 2), numpy.float32)
    index = numpy.array([0, 2, 0, 0, 3])
    values = numpy.arange(10, dtype=numpy.float32).reshape(5, 2)
    expected = a.copy()
    for i, v in zip(index, values):
        expected[i] += v
    _numerics.add_at(a, index, values)
    numpy.testing.assert_array_equal(a, expected)


def test_add_at_with_a_tuple_index():
    a = numpy.zeros((2, 3, 3))
    rows = numpy.array([0, 0, 2])
    cols = numpy.array([1, 1, 2])
    _numerics.add_at(a, (slice(None), rows, cols), numpy.ones((2, 3)))
    expected = numpy.zeros((2, 3, 3))
    expected[:, 0, 1] = 2
    expected[:, 2, 2] = 1
    numpy.testing.assert_array_equal(a, expected)


@attr.gpu
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_gpu_matches_cpu(dtype):
    x = numpy.array(_FINITE_ROWS[:3], dtype)
    xg = cuda.to_gpu(x)
    for f in (_numerics.softmax, _numerics.log_softmax, _numerics.logsumexp):
        yg = f(xg, 1)
        assert isinstance(yg, cuda.ndarray)
        numpy.testing.assert_allclose(
            cuda.to_cpu(yg), f(x, 1), rtol=_TOLERANCE[dtype],
            atol=_TOLERANCE[dtype])
    rows = numpy.array(_INFINITE_ROWS, dtype)
    assert numpy.isnan(cuda.to_cpu(
        _numerics.softmax(cuda.to_gpu(rows), 1))).all()
    assert numpy.isnan(cuda.to_cpu(
        _numerics.logsumexp(cuda.to_gpu(rows), 1))).all()
    s = numpy.linspace(-30, 30, 61).astype(dtype)
    sg = cuda.to_gpu(s)
    numpy.testing.assert_allclose(
        cuda.to_cpu(_numerics.sigmoid(sg)), _numerics.sigmoid(s),
        rtol=_TOLERANCE[dtype] * 2, atol=_TOLERANCE[dtype])
    _numerics.sigmoid(sg, out=sg)
    numpy.testing.assert_allclose(
        cuda.to_cpu(sg), _numerics.sigmoid(s), rtol=_TOLERANCE[dtype] * 2,
        atol=_TOLERANCE[dtype])


@attr.gpu
def test_gpu_add_at():
    index = numpy.array([0, 2, 0, 0, 3])
    values = numpy.arange(10, dtype=numpy.float32).reshape(5, 2)
    a = numpy.zeros((4, 2), numpy.float32)
    ag = cuda.to_gpu(a)
    _numerics.add_at(a, index, values)
    _numerics.add_at(ag, cuda.to_gpu(index), cuda.to_gpu(values))
    numpy.testing.assert_array_equal(cuda.to_cpu(ag), a)


@pytest.mark.parametrize('func', [numpy.exp, numpy.expm1])
def test_rounded_float32_exponentials(func):
    # float32: computed in float64 and rounded once, written in place.
    a = numpy.random.RandomState(0).normal(0, 4, 1000).astype(numpy.float32)
    expected = func(a.astype(numpy.float64)).astype(numpy.float32)
    out = _numerics.rounded(func, a)
    assert out is a
    numpy.testing.assert_array_equal(a, expected)
    # Other dtypes: the function itself, in place.
    b = numpy.linspace(-3, 3, 7)
    expected = func(b)
    numpy.testing.assert_array_equal(_numerics.rounded(func, b), expected)
