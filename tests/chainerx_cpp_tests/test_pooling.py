import numpy
import pytest

import chainer
import chainerx_cpp
import chainer.functions as F
from chainer.functions.pooling import max_pooling_nd
from chainer import testing


_CASES = [
    # (input shape, ksize, stride, pad, cover_all)
    ((2, 3, 8, 8), 2, None, 0, True),
    # 2x2 tiles with a row and a column outside every window.
    ((2, 3, 9, 7), 2, 2, 0, False),
    ((3, 4, 6, 10), (2, 2), 2, 0, True),
    ((4, 16, 64, 64), 2, None, 0, True),  # split over threads
    ((2, 3, 11, 9), 3, 2, 1, True),
    ((2, 3, 11, 9), 3, 2, 1, False),
    ((1, 2, 7, 7), (2, 3), (1, 2), (1, 0), True),
    ((2, 2, 5, 5), 5, 1, 2, False),
    ((2, 3, 9), 3, 2, 1, True),
    ((1, 2, 5, 6, 7), 3, 2, 1, True),
]


def _case_id(case):
    return 'x{}-k{}-s{}-p{}-cover{}'.format(*case)


_LAYOUTS = ['c', 'channels_last']

# The kernels of each pooling, forward and backward.
_MAX = ('max_pooling_forward', 'max_pooling_backward')
_AVERAGE = ('average_pooling_forward', 'average_pooling_backward')


def _laid_out(x, layout):
    # x itself, or its values channels-last (as a convolution returns them).
    if layout == 'c':
        return x
    return numpy.moveaxis(
        numpy.ascontiguousarray(numpy.moveaxis(x, 1, -1)), -1, 1)


def _check_layout(y, layout):
    # The kernels' outputs keep a channels-last input's layout.
    if layout == 'channels_last' and y.shape[1] > 1:
        assert not y.flags.c_contiguous
        assert chainer._kernels.is_channels_last(y)
    else:
        assert y.flags.c_contiguous


@pytest.mark.parametrize('layout', _LAYOUTS)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('case', _CASES, ids=_case_id)
def test_max_pooling_matches_numpy_path(case, dtype, layout, run_both,
                                        tolerance):
    shape, ksize, stride, pad, cover_all = case
    x = numpy.random.RandomState(1).uniform(-1, 1, shape).astype(dtype)

    def f(v):
        return F.max_pooling_nd(v, ksize, stride, pad, cover_all)
    (y0, (gx0,)), (y1, (gx1,)) = run_both(f, _laid_out(x, layout),
                                          kernels=_MAX)
    testing.assert_allclose(y0, y1, atol=0, rtol=0)
    testing.assert_allclose(gx0, gx1, **tolerance(dtype))
    _check_layout(y1, layout)
    _check_layout(gx1, layout)


@pytest.mark.parametrize('layout', _LAYOUTS)
@pytest.mark.parametrize('case', _CASES, ids=_case_id)
def test_max_pooling_indexes_match(case, layout, in_both_modes):
    shape, ksize, stride, pad, cover_all = case
    # Ties, -inf and NaN inside windows decide which index wins.
    x = numpy.random.RandomState(2).randint(-2, 2, shape).astype('f')
    x.ravel()[::7] = -numpy.inf
    x.ravel()[::11] = numpy.nan
    x = _laid_out(x, layout)

    def compute():
        y, index = F.max_pooling_nd(
            x, ksize, stride, pad, cover_all, return_indices=True)
        return y.array, index
    (y0, i0), (y1, i1) = in_both_modes(compute, _MAX[:1])
    numpy.testing.assert_array_equal(y0, y1)
    numpy.testing.assert_array_equal(i0, i1)


@pytest.mark.parametrize('layout', _LAYOUTS)
def test_max_pooling_long_window_nan_index(layout, in_both_modes):
    # Windows of more than 16 elements find the first NaN, as argmax does.
    x = numpy.zeros((1, 3, 5, 5), 'f')
    x[0, 0, 3, 2] = numpy.nan
    x[0, 2, 4, 4] = numpy.nan
    x[0, 2, 1, 0] = numpy.nan
    x = _laid_out(x, layout)
    results = in_both_modes(
        lambda: F.max_pooling_2d(x, 5, return_indices=True)[1], _MAX[:1])
    numpy.testing.assert_array_equal(results[0], results[1])
    assert results[1].ravel().tolist() == [17, 0, 5]


def test_max_pooling_non_contiguous_input(run_both):
    x = numpy.random.RandomState(3).uniform(-1, 1, (2, 3, 12, 10)).astype('f')
    x = x[:, :, ::2, ::-1]
    (y0, (gx0,)), (y1, (gx1,)) = run_both(
        lambda v: F.max_pooling_2d(v, 2), x, kernels=_MAX)
    testing.assert_allclose(y0, y1, atol=0, rtol=0)
    testing.assert_allclose(gx0, gx1)


def test_max_pooling_double_backprop_uses_kernel_indexes(kernel_calls):
    x = numpy.random.RandomState(4).uniform(-1, 1, (2, 2, 6, 6)).astype('f')
    gy = numpy.random.RandomState(5).uniform(-1, 1, (2, 2, 4, 4)).astype('f')
    ggx = numpy.random.RandomState(6).uniform(-1, 1, x.shape).astype('f')
    with chainer.using_config('use_chainerx_cpp', 'always'):
        def f(v):
            return F.max_pooling_2d(v, 3, stride=2, pad=1)
        chainer.gradient_check.check_double_backward(
            f, x, gy, ggx, dtype=numpy.float64, atol=1e-3, rtol=1e-3)
    kernel_calls.check(_MAX)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('pad_value', [0, None])
@pytest.mark.parametrize('case', [
    ((2, 3, 8, 8), 2, None, 0),
    ((2, 3, 11, 9), 3, 2, 1),
    ((1, 2, 7, 7), (2, 3), (1, 2), (1, 0)),
    ((2, 3, 9), 3, 2, 1),
    ((1, 2, 5, 6, 7), 3, 2, 1),
], ids=lambda c: 'x{}-k{}-s{}-p{}'.format(*c))
@pytest.mark.parametrize('layout', _LAYOUTS)
def test_average_pooling_matches_numpy_path(
        case, pad_value, dtype, layout, run_both, tolerance):
    shape, ksize, stride, pad = case
    x = numpy.random.RandomState(1).uniform(-1, 1, shape).astype(dtype)

    def f(v):
        return F.average_pooling_nd(v, ksize, stride, pad,
                                    pad_value=pad_value)
    (y0, (gx0,)), (y1, (gx1,)) = run_both(f, _laid_out(x, layout),
                                          kernels=_AVERAGE)
    testing.assert_allclose(y0, y1, **tolerance(dtype))
    testing.assert_allclose(gx0, gx1, **tolerance(dtype))
    _check_layout(y1, layout)
    _check_layout(gx1, layout)


def test_average_pooling_2d_matches_numpy_path(run_both):
    x = numpy.random.RandomState(1).uniform(-1, 1, (2, 3, 9, 8)).astype('f')
    (y0, (gx0,)), (y1, (gx1,)) = run_both(
        lambda v: F.average_pooling_2d(v, 3, 2, 1), x, kernels=_AVERAGE)
    testing.assert_allclose(y0, y1)
    testing.assert_allclose(gx0, gx1)


def test_float16_falls_back(kernel_calls):
    x = numpy.random.RandomState(1).uniform(-1, 1, (2, 3, 6, 6)).astype('e')
    with chainer.using_config('use_chainerx_cpp', 'always'):
        y = F.max_pooling_2d(x, 2)
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(
        y.array, x.reshape(2, 3, 3, 2, 3, 2).max(axis=(3, 5)))
    kernel_calls.check(())


def test_kernel_rejects_bad_arguments():
    kernels = chainerx_cpp.get_kernels()
    with pytest.raises(ValueError):
        kernels.max_pooling_forward(
            numpy.zeros((1, 1, 4, 4), 'f'), [2], [2, 2], [2, 2], [0, 0])
    with pytest.raises(ValueError):
        kernels.max_pooling_forward(
            numpy.zeros((1, 1, 4, 4), 'i'), [2, 2], [2, 2], [2, 2], [0, 0])


@pytest.mark.parametrize('gy_layout', _LAYOUTS)
def test_max_backward_kernel_wants_indexes_in_the_layout_of_gy(gy_layout):
    kernels = chainerx_cpp.get_kernels()
    x = numpy.random.RandomState(7).uniform(-1, 1, (2, 3, 4, 4)).astype('f')
    y, index = kernels.max_pooling_forward(
        _laid_out(x, gy_layout), [2, 2], [2, 2], [2, 2], [0, 0])
    other = 'c' if gy_layout == 'channels_last' else 'channels_last'
    gy = _laid_out(numpy.ones(y.shape, 'f'), other)
    with pytest.raises(ValueError):
        kernels.max_pooling_backward(gy, index, list(x.shape), [2, 2],
                                     [2, 2], [0, 0])
    with pytest.raises(ValueError):
        kernels.max_pooling_backward(
            _laid_out(numpy.ones(y.shape, 'f'), gy_layout),
            index.astype(numpy.int32), list(x.shape), [2, 2], [2, 2],
            [0, 0])


def test_indexes_of_kernel_are_int64(kernel_calls):
    x = numpy.ones((1, 1, 4, 4), 'f')
    node = max_pooling_nd.MaxPoolingND(2, 2)
    with chainer.using_config('use_chainerx_cpp', 'always'):
        node.apply((x,))
    kernel_calls.check(_MAX[:1])
    assert node.indexes.dtype == numpy.int64
