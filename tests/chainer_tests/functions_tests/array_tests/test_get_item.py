import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.testing import attr


DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def _tol(dtype):
    # Numerical gradients in float64; float16 backward rounds more.
    if dtype == numpy.float16:
        return {'dtype': numpy.float64, 'atol': 1e-2, 'rtol': 1e-2}
    return {'dtype': numpy.float64}

# (name, index) on an array of shape (4, 3, 2).
SLICE_CASES = [
    ('int', 1),
    ('negative_int', -1),
    ('numpy_int', numpy.int64(2)),
    ('slice', slice(1, 3)),
    ('step_slice', slice(None, None, -2)),
    ('tuple', (1, slice(0, 2), 0)),
    ('ellipsis', (Ellipsis, 1)),
    ('newaxis', (None, 1, Ellipsis, None)),
    ('empty_tuple', ()),
    ('int_list', [0, 2]),
    ('repeated_int_list', [0, 0, 3, 0]),
    ('nested_list', [[0, 2], [1, 1]]),
    ('int_array', numpy.array([3, 1, 1])),
    ('array_and_slice', (slice(None), numpy.array([2, 0, 2]))),
    ('two_arrays', (numpy.array([0, 0, 1]), numpy.array([1, 1, 2]))),
    ('array_int', (numpy.array([1, 1]), 0, 1)),
    ('list_with_slice', [slice(0, 2), 1]),
    ('bool_array', numpy.array([True, False, True, True])),
    ('bool_list', [True, False, False, True]),
    ('bool_array_2d', (numpy.arange(12).reshape(4, 3) % 3 == 0)),
    ('bool_scalar', numpy.array(True)),
    ('slice_and_bool', (slice(None), numpy.array([True, False, True]))),
]


def _index_of(name):
    return dict(SLICE_CASES)[name]


def _expected(x, index):
    # A list holding anything but integers is a tuple of indices, as in
    # old NumPy.
    if isinstance(index, list) and not all(
            isinstance(i, int) for i in index):
        index = tuple(index)
    return x[index]


def _to_gpu_index(index):
    if isinstance(index, numpy.ndarray):
        return cuda.to_gpu(index)
    if isinstance(index, tuple):
        return tuple(_to_gpu_index(i) for i in index)
    return index


@pytest.mark.parametrize('name', [name for name, _ in SLICE_CASES])
@pytest.mark.parametrize('dtype', DTYPES)
class TestGetItem:

    def test_forward(self, name, dtype):
        x = numpy.random.uniform(-1, 1, (4, 3, 2)).astype(dtype)
        index = _index_of(name)
        y = F.get_item(chainer.Variable(x), index)
        expected = _expected(x, index)
        assert type(y.creator).__name__ == 'GetItem'
        assert isinstance(y.array, numpy.ndarray)
        assert y.dtype == dtype
        numpy.testing.assert_array_equal(y.array, expected)

    def test_variable_getitem(self, name, dtype):
        x = numpy.random.uniform(-1, 1, (4, 3, 2)).astype(dtype)
        y = chainer.Variable(x)[_index_of(name)]
        numpy.testing.assert_array_equal(
            y.array, F.get_item(x, _index_of(name)).array)

    def test_backward(self, name, dtype):
        x = numpy.random.uniform(-1, 1, (4, 3, 2)).astype(dtype)
        index = _index_of(name)
        y_shape = F.get_item(x, index).shape
        gy = numpy.random.uniform(-1, 1, y_shape).astype(dtype)
        ggx = numpy.random.uniform(-1, 1, x.shape).astype(dtype)

        def f(v):
            return F.get_item(v, index)
        gradient_check.check_backward(f, x, gy, **_tol(dtype))
        gradient_check.check_double_backward(
            f, x, gy, ggx, **_tol(dtype))


def test_repeated_indices_accumulate():
    x = chainer.Variable(numpy.zeros((3, 2), numpy.float32))
    y = x[[0, 0, 2, 0]]
    y.grad = numpy.ones((4, 2), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[3, 3], [0, 0], [1, 1]])


def test_gradient_of_basic_slice():
    x = chainer.Variable(numpy.zeros((3, 4), numpy.float32))
    y = x[1:, ::2]
    y.grad = numpy.arange(4, dtype=numpy.float32).reshape(2, 2) + 1
    y.backward()
    numpy.testing.assert_array_equal(
        x.grad, [[0, 0, 0, 0], [1, 0, 2, 0], [3, 0, 4, 0]])


def test_zero_dimensional_input():
    x = numpy.array(3.0, numpy.float32)
    for index, shape in [(None, (1,)), (Ellipsis, ()), ((), ())]:
        y = F.get_item(x, index)
        assert isinstance(y.array, numpy.ndarray)
        assert y.shape == shape
        gradient_check.check_backward(
            lambda v: F.get_item(v, index), x,
            numpy.ones(shape, numpy.float32), dtype=numpy.float64)


def test_scalar_result_is_array():
    y = F.get_item(numpy.arange(6, dtype=numpy.float32).reshape(2, 3), (1, 2))
    assert isinstance(y.array, numpy.ndarray)
    assert y.shape == ()
    assert float(y.array) == 5.0


def test_integer_input():
    x = numpy.arange(6, dtype=numpy.int32).reshape(2, 3)
    y = F.get_item(x, (Ellipsis, 2))
    numpy.testing.assert_array_equal(y.array, [2, 5])


def test_out_of_bounds():
    with pytest.raises(IndexError):
        F.get_item(numpy.zeros((2, 3), numpy.float32), 5)


def test_too_many_indices():
    with pytest.raises(IndexError):
        F.get_item(numpy.zeros((2, 3), numpy.float32), (0, 0, 0))


def test_two_ellipses_in_debug_mode():
    x = numpy.zeros((2, 3), numpy.float32)
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='Only one Ellipsis'):
            F.get_item(x, (Ellipsis, Ellipsis))


@attr.gpu
@pytest.mark.parametrize('name', [name for name, _ in SLICE_CASES])
def test_gpu(name):
    x = numpy.random.uniform(-1, 1, (4, 3, 2)).astype(numpy.float32)
    index = _to_gpu_index(_index_of(name))
    expected = _expected(x, _index_of(name))
    y = F.get_item(cuda.to_gpu(x), index)
    assert isinstance(y.array, cuda.ndarray)
    testing.assert_allclose(y.array, expected)
    gy = numpy.random.uniform(-1, 1, y.shape).astype(numpy.float32)
    gradient_check.check_backward(
        lambda v: F.get_item(v, index), cuda.to_gpu(x), cuda.to_gpu(gy),
        atol=1e-3, rtol=1e-3)


@attr.gpu
def test_repeated_indices_accumulate_gpu():
    x = chainer.Variable(cuda.to_gpu(numpy.zeros((3, 2), numpy.float32)))
    y = x[[0, 0, 2, 0]]
    y.grad = cuda.cupy.ones((4, 2), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(
        cuda.to_cpu(x.grad), [[3, 3], [0, 0], [1, 1]])


@pytest.mark.parametrize('slices', [
    lambda t: t, lambda t: (slice(None), t), lambda t: [t, t, 0],
    lambda t: (Ellipsis, slice(t, t + 2)),
], ids=['step', 'column', 'repeated-rows', 'window'])
def test_slices_of_one_array_taken_step_by_step(slices):
    # The gradients of the later steps are added into the running sum of
    # x's gradient; elements picked twice get both.
    rng = numpy.random.RandomState(0)
    x = chainer.Variable(rng.uniform(-1, 1, (4, 4, 3)).astype(numpy.float32))
    expected = numpy.zeros_like(x.array)
    loss = 0
    for t in range(4):
        y = x[slices(t)]
        gy = rng.uniform(-1, 1, y.shape).astype(numpy.float32)
        loss += F.sum(y * gy)
        numpy.add.at(expected, slices(t), gy)
    loss.backward()
    testing.assert_allclose(x.grad, expected, atol=1e-6, rtol=1e-6)
