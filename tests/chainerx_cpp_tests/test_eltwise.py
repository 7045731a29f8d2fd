"""The ReLU, sigmoid and tanh kernels and the sum, difference and product
of two arrays against the NumPy code paths."""

import operator

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer import _kernels as _kernels_module
import chainerx_cpp

pytestmark = pytest.mark.skipif(
    not chainerx_cpp.is_available(),
    reason='the chainerx_cpp kernels are not built')

_FUNCTIONS = [F.relu, F.sigmoid, F.tanh]
# The last shape is large enough for several threads.
_SHAPES = [(), (0,), (3, 0), (7,), (5, 13), (2, 3, 4, 5), (3, 50000),
           (2, 1 << 19)]
_LAYOUTS = ['contiguous', 'transposed', 'strided']


def _tol(dtype):
    if dtype == numpy.float32:
        return {'atol': 1e-6, 'rtol': 1e-5}
    return {'atol': 1e-14, 'rtol': 1e-13}


def _array(rng, shape, dtype, layout, scale=4.0):
    if not shape:
        return numpy.asarray(rng.randn() * scale, dtype)
    if layout == 'transposed':
        return (rng.randn(*shape[::-1]) * scale).astype(dtype).T
    if layout == 'strided':
        wide = shape[:-1] + (shape[-1] * 2,)
        return (rng.randn(*wide) * scale).astype(dtype)[..., ::2]
    return (rng.randn(*shape) * scale).astype(dtype)


def _forward_backward(function, x, gy):
    def compute():
        v = chainer.Variable(x.copy(order='K'))
        y = function(v)
        y.grad = gy
        y.backward()
        return y.array, v.grad
    return compute


def _kernels(function, x):
    # The kernels of function on x, forward and backward: none for an
    # empty x, and only the backward one for a float32 tanh (NumPy's
    # float32 tanh is the faster).
    if x.size == 0:
        return ()
    name = function.__name__
    if name == 'tanh' and x.dtype == numpy.float32:
        return name + '_backward',
    return name + '_forward', name + '_backward'


@pytest.mark.parametrize('function', _FUNCTIONS)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', _SHAPES)
@pytest.mark.parametrize('layout', _LAYOUTS)
def test_forward_backward(function, dtype, shape, layout, in_both_modes):
    rng = numpy.random.RandomState(0)
    x = _array(rng, shape, dtype, layout)
    gy = _array(rng, shape, dtype, layout, 1.0)
    expected, actual = in_both_modes(_forward_backward(function, x, gy),
                                     _kernels(function, x))
    for e, a in zip(expected, actual):
        assert a.dtype == e.dtype and a.shape == e.shape
        testing.assert_allclose(e, a, **_tol(dtype))


@pytest.mark.filterwarnings('ignore::RuntimeWarning')
@pytest.mark.parametrize('function', _FUNCTIONS)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_special_values(function, dtype, in_both_modes):
    x = numpy.array([numpy.nan, numpy.inf, -numpy.inf, -0.0, 0.0, 1e-30,
                     -1e-30, 30.0, -30.0, 100.0, -100.0, 800.0, -800.0],
                    dtype)
    gy = numpy.array([1, 2, numpy.nan, numpy.inf, 1, 1, 1, 1, 1, 1, 1,
                      -numpy.inf, 1], dtype)
    expected, actual = in_both_modes(_forward_backward(function, x, gy),
                                     _kernels(function, x))
    for e, a in zip(expected, actual):
        testing.assert_allclose(e, a, **_tol(dtype))
        numpy.testing.assert_array_equal(numpy.isnan(e), numpy.isnan(a))


@pytest.mark.parametrize('function', _FUNCTIONS)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_double_backward(function, dtype, kernel_calls):
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-2, 2, (4, 5)).astype(dtype)
    x[abs(x) < 0.1] = 0.5  # away from the kink of ReLU
    gy = rng.randn(4, 5).astype(dtype)
    ggx = rng.randn(4, 5).astype(dtype)
    tol = {'atol': 1e-2, 'rtol': 1e-2} if dtype == numpy.float32 else {}
    with chainer.using_config('use_chainerx_cpp', 'always'):
        gradient_check.check_double_backward(
            function, x, gy, ggx, dtype=numpy.float64, **tol)
    kernel_calls.check(_kernels(function, x))


@pytest.mark.parametrize('name', ['relu', 'sigmoid', 'tanh'])
def test_kernels_reject_bad_input(name):
    kernels = chainerx_cpp.get_kernels()
    forward = getattr(kernels, name + '_forward')
    backward = getattr(kernels, name + '_backward')
    x = numpy.ones((3, 4), numpy.float32)
    with pytest.raises(ValueError):
        forward(x.astype(numpy.int32))
    with pytest.raises(ValueError):
        forward(x.T)
    with pytest.raises(ValueError):
        backward(x, x.astype(numpy.float64))
    with pytest.raises(ValueError):
        backward(x, x[:2])


@pytest.mark.parametrize('function', _FUNCTIONS)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_dispatch(function, dtype, kernel_calls):
    x = numpy.ones((2, 3), dtype)
    with chainer.using_config('use_chainerx_cpp', 'always'):
        _forward_backward(function, x, x)()
    expected = list(_kernels(function, x))
    assert kernel_calls == expected
    with chainer.using_config('use_chainerx_cpp', 'never'):
        _forward_backward(function, x, x)()
    assert kernel_calls == expected


def test_tanh_kernel_float32():
    # The operation keeps float32 on NumPy; the kernel still takes it.
    x = _array(numpy.random.RandomState(3), (5, 9000), numpy.float32,
               'contiguous')
    y = chainerx_cpp.get_kernels().tanh_forward(x)
    testing.assert_allclose(numpy.tanh(x), y, **_tol(numpy.float32))


@pytest.mark.parametrize('func', _FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize('layout', _LAYOUTS)
def test_output_layouts_are_numpys(func, layout, in_both_modes):
    # A Fortran-ordered input gives Fortran-ordered outputs and gradients,
    # as NumPy's ufuncs (and Chainer 7.8) give; other layouts C order.
    rng = numpy.random.RandomState(5)
    x = _array(rng, (6, 7), numpy.float32, layout)
    gy = _array(rng, (6, 7), numpy.float32, layout)
    expected, actual = in_both_modes(_forward_backward(func, x, gy),
                                     _kernels(func, x))
    for e, a in zip(expected, actual):
        assert (a.flags.f_contiguous, a.flags.c_contiguous) == (
            e.flags.f_contiguous, e.flags.c_contiguous)
        testing.assert_allclose(e, a, **_tol(x.dtype))


# The sum, difference and product of two arrays of one shape (F.add, F.sub,
# F.mul, and the sum of the gradients that reach a variable by two paths)
# run as kernels from PARALLEL_GRAIN elements, where they run on two
# threads. Each result is rounded once, in NumPy as in the kernel: the
# results agree bit for bit.
_SUM_SHAPES = [(5, 13), (3, 20000), (2, 1 << 17)]
_ARITHMETIC = {'add': operator.add, 'subtract': operator.sub,
               'multiply': operator.mul}


def _sums(shape, count, name='add'):
    big = numpy.prod(shape) >= _kernels_module.PARALLEL_GRAIN
    return (name,) * count if big else ()


def _assert_same_arrays(expected, actual):
    for e, a in zip(expected, actual):
        assert a.dtype == e.dtype and a.shape == e.shape
        assert (a.flags.f_contiguous, a.flags.c_contiguous) == (
            e.flags.f_contiguous, e.flags.c_contiguous)
        numpy.testing.assert_array_equal(e, a)


@pytest.mark.parametrize('name', sorted(_ARITHMETIC))
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', _SUM_SHAPES)
@pytest.mark.parametrize('layouts', [(layout, layout) for layout in _LAYOUTS]
                         + [('contiguous', 'transposed'),
                            ('transposed', 'contiguous')])
def test_arithmetic(name, dtype, shape, layouts, in_both_modes):
    rng = numpy.random.RandomState(6)
    a, b = [_array(rng, shape, dtype, layout) for layout in layouts]
    gy = _array(rng, shape, dtype, 'contiguous')

    def compute():
        va = chainer.Variable(a.copy(order='K'))
        vb = chainer.Variable(b.copy(order='K'))
        y = _ARITHMETIC[name](va, vb)
        y.grad = gy
        y.backward()
        return y.array, va.grad, vb.grad

    # Arrays of two layouts take NumPy's operation, which chooses the
    # layout of the result.
    same_layout = layouts[0] == layouts[1]
    expected, actual = in_both_modes(
        compute, _sums(shape, 1, name) if same_layout else ())
    _assert_same_arrays(expected, actual)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', _SUM_SHAPES)
def test_sum_of_gradients(dtype, shape, in_both_modes):
    # x reaches y twice, with the gradient of y each time: the gradient of
    # x is their sum, a new array.
    rng = numpy.random.RandomState(7)
    x = _array(rng, shape, dtype, 'contiguous')
    gy = _array(rng, shape, dtype, 'contiguous')

    def compute():
        v = chainer.Variable(x.copy())
        y = v + v
        y.grad = gy
        y.backward()
        return y.array, v.grad

    expected, actual = in_both_modes(compute, _sums(shape, 2))
    _assert_same_arrays(expected, actual)
    numpy.testing.assert_array_equal(actual[1], gy + gy)


@pytest.mark.parametrize('name', sorted(_ARITHMETIC))
def test_arithmetic_kernels_reject_bad_input(name):
    kernel = getattr(chainerx_cpp.get_kernels(), name)
    x = numpy.ones((3, 4), numpy.float32)
    with pytest.raises(ValueError):
        kernel(x.astype(numpy.int32), x.astype(numpy.int32))
    with pytest.raises(ValueError):
        kernel(x, x.astype(numpy.float64))
    with pytest.raises(ValueError):
        kernel(x, x[:2])
    with pytest.raises(ValueError):
        kernel(x, x.T.copy().T)
