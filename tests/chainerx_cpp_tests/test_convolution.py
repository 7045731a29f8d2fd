import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing


_CASES = [
    # (x shape, W shape, stride, pad, dilate, groups, cover_all)
    ((2, 3, 9, 8), (4, 3, 3, 3), 1, 0, 1, 1, False),
    ((2, 3, 9, 8), (4, 3, 3, 2), 2, 1, 1, 1, False),
    ((2, 3, 10, 11), (4, 3, 3, 3), 3, 1, 1, 1, True),
    ((2, 4, 9, 9), (6, 2, 3, 3), 2, 2, 2, 2, False),
    ((1, 6, 7, 7), (6, 1, 3, 3), 1, 1, 1, 6, False),
    ((2, 3, 12), (4, 3, 3), 2, 1, 1, 1, True),
    ((1, 2, 5, 6, 7), (3, 2, 2, 3, 2), (1, 2, 1), 1, 1, 1, False),
    # Channel counts that blocked layouts pad: run channels-last.
    ((2, 20, 9, 8), (50, 20, 3, 3), 1, 1, 1, 1, False),
    ((3, 12, 10, 9), (20, 12, 3, 2), 2, 1, 2, 1, True),
    # One input channel (LeNet's first layer): oneDNN's direct kernel.
    ((2, 1, 12, 11), (20, 1, 5, 5), 1, 0, 1, 1, False),
]


def _case_id(case):
    return 'x{}-W{}-s{}-p{}-d{}-g{}-cover{}'.format(*case)


# The kernels of a convolution's forward and backward (the bias gradient
# is a channel sum); a deconvolution runs them the other way round.
_KERNELS = ('convolution_forward', 'convolution_backward_data',
            'convolution_backward_weights')
_BIAS_KERNELS = _KERNELS + ('channel_sum',)


def _inputs(case, dtype, nobias=False):
    x_shape, w_shape = case[:2]
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, x_shape).astype(dtype)
    W = rng.uniform(-1, 1, w_shape).astype(dtype)
    b = rng.uniform(-1, 1, w_shape[0]).astype(dtype)
    return (x, W) if nobias else (x, W, b)


@pytest.mark.parametrize('nobias', [False, True])
@pytest.mark.parametrize('case', _CASES, ids=_case_id)
def test_convolution_matches_numpy_path(case, nobias, run_both):
    stride, pad, dilate, groups, cover_all = case[2:]

    def f(x, W, b=None):
        return F.convolution_nd(x, W, b, stride, pad, cover_all, dilate,
                                groups)
    (y0, g0), (y1, g1) = run_both(
        f, *_inputs(case, numpy.float32, nobias),
        kernels=_KERNELS if nobias else _BIAS_KERNELS)
    testing.assert_allclose(y0, y1, atol=1e-5, rtol=1e-4)
    for a, b in zip(g0, g1):
        testing.assert_allclose(a, b, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize('case', _CASES, ids=_case_id)
def test_deconvolution_matches_numpy_path(case, run_both):
    stride, pad, dilate, groups, cover_all = case[2:]
    x, W, _ = _inputs(case, numpy.float32)
    # The deconvolution of the convolution's output back to x's shape.
    with chainer.using_config('use_chainerx_cpp', 'never'):
        y = F.convolution_nd(x, W, None, stride, pad, cover_all, dilate,
                             groups).array
    b = numpy.random.RandomState(1).uniform(
        -1, 1, W.shape[1] * groups).astype('f')

    def f(y, W, b):
        return F.deconvolution_nd(y, W, b, stride, pad, x.shape[2:],
                                  dilate=dilate, groups=groups)
    (y0, g0), (y1, g1) = run_both(f, y, W, b, kernels=_BIAS_KERNELS)
    testing.assert_allclose(y0, y1, atol=1e-5, rtol=1e-4)
    for a, b in zip(g0, g1):
        testing.assert_allclose(a, b, atol=1e-4, rtol=1e-4)


def test_convolution_2d_non_contiguous_inputs(run_both):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, 3, 14, 10)).astype('f')[:, :, ::2]
    W = rng.uniform(-1, 1, (3, 4, 3, 3)).astype('f').transpose(1, 0, 2, 3)
    (y0, g0), (y1, g1) = run_both(
        lambda x, W: F.convolution_2d(x, W, pad=1), x, W, kernels=_KERNELS)
    testing.assert_allclose(y0, y1, atol=1e-5, rtol=1e-4)
    for a, b in zip(g0, g1):
        testing.assert_allclose(a, b, atol=1e-4, rtol=1e-4)


def test_convolution_double_backward_through_kernels(kernel_calls):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, 2, 5, 5)).astype('f')
    W = rng.uniform(-1, 1, (3, 2, 3, 3)).astype('f')
    gy = rng.uniform(-1, 1, (2, 3, 3, 3)).astype('f')
    ggx = rng.uniform(-1, 1, x.shape).astype('f')
    ggW = rng.uniform(-1, 1, W.shape).astype('f')
    with chainer.using_config('use_chainerx_cpp', 'always'):
        chainer.gradient_check.check_double_backward(
            F.convolution_2d, (x, W), gy, (ggx, ggW), dtype=numpy.float64,
            atol=5e-3, rtol=5e-3)
    kernel_calls.check(_KERNELS)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
def test_other_dtypes_fall_back_to_numpy(dtype, run_both, tolerance):
    # The convolution kernels take float32 only; the sum of the bias
    # gradient takes float64 as well.
    case = _CASES[1]
    (y0, (gx0, gW0, gb0)), (y1, (gx1, gW1, gb1)) = run_both(
        lambda x, W, b: F.convolution_2d(x, W, b, 2, 1),
        *_inputs(case, dtype),
        kernels=('channel_sum',) if dtype == numpy.float64 else ())
    numpy.testing.assert_array_equal(y0, y1)
    numpy.testing.assert_array_equal(gx0, gx1)
    numpy.testing.assert_array_equal(gW0, gW1)
    testing.assert_allclose(gb0, gb1, **tolerance(dtype))


def test_four_spatial_axes_fall_back_to_numpy(kernel_calls):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (1, 2, 3, 3, 3, 3)).astype('f')
    W = rng.uniform(-1, 1, (2, 2, 2, 2, 2, 2)).astype('f')
    with chainer.using_config('use_chainerx_cpp', 'always'):
        y = F.convolution_nd(x, W)
    assert y.shape == (1, 2, 2, 2, 2, 2)
    kernel_calls.check(())


def test_always_without_kernels_is_an_error(monkeypatch):
    from chainer import _kernels
    monkeypatch.setattr(_kernels, '_module', None)
    x = numpy.zeros((1, 1, 3, 3), 'f')
    with chainer.using_config('use_chainerx_cpp', 'always'):
        with pytest.raises(RuntimeError, match='not available'):
            F.convolution_2d(x, numpy.zeros((1, 1, 2, 2), 'f'))
    with chainer.using_config('use_chainerx_cpp', 'auto'):
        assert F.convolution_2d(
            x, numpy.ones((1, 1, 2, 2), 'f')).shape == (1, 1, 2, 2)


def test_bad_mode_is_an_error():
    x = numpy.zeros((1, 1, 3, 3), 'f')
    with chainer.using_config('use_chainerx_cpp', 'sometimes'):
        with pytest.raises(ValueError, match='use_chainerx_cpp'):
            F.convolution_2d(x, numpy.zeros((1, 1, 2, 2), 'f'))


def test_unsupported_case_falls_back_to_numpy(kernel_calls, run_both):
    # Each convolution kernel (and the sum of the bias gradient) reports
    # the case as one it does not cover: both runs take the NumPy path,
    # and give the same bits.
    kernel_calls.refuse('convolution_', 'channel_sum')
    (y0, g0), (y1, g1) = run_both(
        lambda x, W, b: F.convolution_2d(x, W, b, 2, 1),
        *_inputs(_CASES[1], numpy.float32), kernels=(),
        refused=_BIAS_KERNELS)
    numpy.testing.assert_array_equal(y0, y1)
    for a, b in zip(g0, g1):
        numpy.testing.assert_array_equal(a, b)
