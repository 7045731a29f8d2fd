"""Channels-last activations: the convolutions' outputs and what takes them.

The 2-D convolutions compute channels-last where oneDNN runs so (always on
AVX-512, else where the blocked layouts pad the channels: 20 and 50 channels
on every CPU) and return their activations channels-last, as the original
Chainer's NumPy convolution does; batch normalization, the element-wise
kernels, the residual sum and the pooling take them as they are. Every
result must equal the NumPy path's, in either layout of the inputs.
"""

import numpy
import pytest

import chainer
from chainer import _kernels
import chainer.functions as F
from chainer import testing
import chainerx_cpp


def _channels_last(a):
    return numpy.moveaxis(numpy.ascontiguousarray(numpy.moveaxis(a, 1, -1)),
                          -1, 1)


def _uniform(shape, seed, dtype=numpy.float32):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


# The kernels of a convolution, forward and backward, and of a batch
# normalization.
_CONVOLUTION = ('convolution_forward', 'convolution_backward_data',
                'convolution_backward_weights')
_BATCH_NORMALIZATION = ('batch_normalization_forward',
                        'batch_normalization_backward')


def _assert_close(expected, actual, dtype=numpy.float32):
    tol = ({'atol': 1e-12, 'rtol': 1e-12} if dtype == numpy.float64
           else {'atol': 1e-4, 'rtol': 1e-4})
    for e, a in zip(expected, actual):
        testing.assert_allclose(e, a, **tol)


@pytest.mark.parametrize('shape', [(2, 3, 4), (2, 3, 4, 5), (2, 3, 4, 5, 2),
                                   (1, 1, 4, 5), (2, 3, 1, 1)])
def test_is_channels_last(shape):
    a = numpy.zeros(shape, 'f')
    b = _channels_last(a)
    assert _kernels.is_channels_last(b)
    # A C-contiguous array is channels-last only with one channel or one
    # spatial element, where both layouts are the same memory.
    assert _kernels.is_channels_last(a) == (
        shape[1] == 1 or numpy.prod(shape[2:]) == 1)
    if shape[2] > 1:
        assert not _kernels.is_channels_last(b[:, :, ::-1])
    assert not _kernels.is_channels_last(a.reshape(shape[0], -1))


@pytest.mark.parametrize('shape', [(2, 3, 7), (2, 5, 4, 6), (2, 3, 4, 5, 2)])
@pytest.mark.parametrize('channels_last', [False, True])
def test_relayout_copies_values(shape, channels_last):
    kernels = chainerx_cpp.get_kernels()
    a = _uniform(shape, 0)
    source = a if channels_last else _channels_last(a)
    b = kernels.relayout(source, channels_last)
    numpy.testing.assert_array_equal(a, b)
    if channels_last:
        assert _kernels.is_channels_last(b) and not b.flags.c_contiguous
    else:
        assert b.flags.c_contiguous


def test_relayout_rejects_bad_input():
    kernels = chainerx_cpp.get_kernels()
    with pytest.raises(ValueError):
        kernels.relayout(numpy.zeros((2, 3), 'f'), True)
    with pytest.raises(ValueError):
        kernels.relayout(numpy.zeros((2, 3, 4, 5), 'f')[:, :, ::2], True)
    with pytest.raises(ValueError):
        kernels.relayout(numpy.zeros((2, 3, 4, 5), 'i'), True)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('source', ['c', 'channels_last', 'strided',
                                    'broadcast'])
@pytest.mark.parametrize('channels_last', [False, True])
def test_to_layout(dtype, source, channels_last, kernel_calls):
    a = _uniform((2, 3, 4, 5), 1, dtype)
    made = {
        'c': a,
        'channels_last': _channels_last(a),
        'strided': _uniform((2, 3, 8, 5), 1, dtype)[:, :, ::2],
        'broadcast': numpy.broadcast_to(a[:1], a.shape),
    }[source]
    with chainer.using_config('use_chainerx_cpp', 'always'):
        b = _kernels.to_layout(made, channels_last)
    numpy.testing.assert_array_equal(made, b)
    # The kernel copies float32 from the other of the two layouts it takes.
    relayout = dtype == numpy.float32 and source == (
        'c' if channels_last else 'channels_last')
    kernel_calls.check(('relayout',) if relayout else ())
    if channels_last:
        assert _kernels.is_channels_last(b)
    else:
        assert b.flags.c_contiguous


@pytest.mark.parametrize('x_layout', ['c', 'channels_last'])
def test_convolution_returns_channels_last(x_layout, run_both):
    # 20 -> 50 channels compute channels-last on every CPU.
    x = _uniform((2, 20, 9, 8), 0)
    if x_layout == 'channels_last':
        x = _channels_last(x)
    W = _uniform((50, 20, 3, 3), 1) * 0.1
    b = _uniform((50,), 2)
    (y0, g0), (y1, g1) = run_both(
        lambda x, W, b: F.convolution_2d(x, W, b, pad=1), x, W, b,
        kernels=_CONVOLUTION + ('channel_sum',))
    _assert_close([y0] + g0, [y1] + g1)
    assert not y1.flags.c_contiguous and _kernels.is_channels_last(y1)
    # The input gradient comes from the same channels-last computation.
    assert _kernels.is_channels_last(g1[0])
    # The NumPy path keeps its own layouts.
    assert y0.flags.c_contiguous


@pytest.mark.parametrize('shape, w_shape', [
    ((2, 4, 7), (5, 4, 3)),
    ((2, 20, 6, 5), (50, 20, 3, 3)),
    ((1, 3, 4, 5, 6), (2, 3, 2, 2, 2)),
])
def test_convolution_and_deconvolution_take_channels_last(
        shape, w_shape, run_both):
    x = _channels_last(_uniform(shape, 3))
    W = _uniform(w_shape, 4)
    (y0, g0), (y1, g1) = run_both(
        lambda x, W: F.convolution_nd(x, W, pad=1), x, W,
        kernels=_CONVOLUTION)
    _assert_close([y0] + g0, [y1] + g1)
    y = _channels_last(y0)
    Wd = _uniform((w_shape[0], w_shape[1]) + w_shape[2:], 5)
    (z0, h0), (z1, h1) = run_both(
        lambda y, W: F.deconvolution_nd(y, W, pad=1, outsize=shape[2:]),
        y, Wd, kernels=_CONVOLUTION)
    _assert_close([z0] + h0, [z1] + h1)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(3, 5, 4, 6), (2, 7, 3), (2, 3, 2, 3, 4),
                                   (300, 17, 30, 2)])
def test_batch_normalization_channels_last(dtype, shape, run_both):
    x = _channels_last(_uniform(shape, 6, dtype) * 3 + 1)
    gamma = _uniform(shape[1:2], 7, dtype) + 2
    beta = _uniform(shape[1:2], 8, dtype)
    (y0, g0), (y1, g1) = run_both(F.batch_normalization, x, gamma, beta,
                                  kernels=_BATCH_NORMALIZATION)
    _assert_close([y0] + g0, [y1] + g1, dtype)
    assert _kernels.is_channels_last(y1) and not y1.flags.c_contiguous
    assert _kernels.is_channels_last(g1[0])


def test_fixed_batch_normalization_channels_last(run_both):
    x = _channels_last(_uniform((3, 5, 4, 6), 9))
    gamma, beta, mean = (_uniform((5,), s) for s in (10, 11, 12))
    var = _uniform((5,), 13) + 1.5
    (y0, g0), (y1, g1) = run_both(
        F.fixed_batch_normalization, x, gamma, beta, mean, var,
        kernels=('fixed_batch_normalization_forward',
                 'batch_normalization_backward'))
    _assert_close([y0] + g0, [y1] + g1)
    assert _kernels.is_channels_last(y1)


def test_batch_normalization_kernel_wants_gy_in_the_layout_of_x():
    kernels = chainerx_cpp.get_kernels()
    x = _channels_last(_uniform((3, 5, 4, 6), 14))
    gamma = numpy.ones(5, 'f')
    _, mean, var = kernels.batch_normalization_forward(x, gamma, gamma, 1e-5)
    inv_std = 1 / numpy.sqrt(var + 1e-5)
    with pytest.raises(ValueError):
        kernels.batch_normalization_backward(
            x, gamma, mean, inv_std, numpy.ascontiguousarray(x), False)


@pytest.mark.parametrize('gy_layout', ['c', 'channels_last', 'broadcast'])
def test_relu_backward_of_mixed_layouts(gy_layout, run_both):
    x = _uniform((2, 20, 6, 5), 15)
    W = _uniform((30, 20, 3, 3), 16)

    def f(x, W):
        y = F.relu(F.convolution_2d(x, W, pad=1))
        if gy_layout == 'c':
            return y * numpy.ascontiguousarray(_uniform(y.shape, 17))
        if gy_layout == 'broadcast':
            return F.broadcast_to(F.sum(y, axis=0), y.shape)
        return y
    (y0, g0), (y1, g1) = run_both(
        f, x, W, kernels=_CONVOLUTION + ('relu_forward', 'relu_backward'))
    _assert_close([y0] + g0, [y1] + g1)


@pytest.mark.parametrize('lhs, rhs', [('channels_last', 'c'),
                                      ('c', 'channels_last'),
                                      ('channels_last', 'channels_last')])
def test_add_keeps_the_layout_of_its_first_operand(lhs, rhs, run_both):
    a, b = _uniform((2, 3, 4, 5), 18), _uniform((2, 3, 4, 5), 19)
    layouts = {'c': lambda v: v, 'channels_last': _channels_last}
    a, b = layouts[lhs](a), layouts[rhs](b)
    # The sums are NumPy's; the kernel copies a C-contiguous second operand
    # of a channels-last first one into its layout.
    (y0, g0), (y1, g1) = run_both(
        lambda a, b: a + b, a, b,
        kernels=('relayout',) if (lhs, rhs) == ('channels_last', 'c') else ())
    _assert_close([y0] + g0, [y1] + g1)
    if lhs == 'channels_last':
        assert _kernels.is_channels_last(y1) and not y1.flags.c_contiguous
    else:
        assert y1.flags.c_contiguous


def test_residual_block_in_both_layouts(run_both):
    # The ResNet block of benchmarks/cpu_training.py, small.
    x = _uniform((2, 16, 7, 6), 20)
    Ws = [_uniform((16, 16, 3, 3), s) * 0.2 for s in (21, 22)]
    gamma, beta = numpy.ones(16, 'f'), numpy.zeros(16, 'f')

    def block(x, W1, W2, gamma, beta):
        h = F.relu(F.batch_normalization(
            F.convolution_2d(x, W1, pad=1), gamma, beta))
        h = F.batch_normalization(F.convolution_2d(h, W2, pad=1), gamma,
                                  beta)
        return F.relu(h + x)

    for source in (x, _channels_last(x)):
        (y0, g0), (y1, g1) = run_both(
            lambda *v: block(block(*v), *v[1:]), source, *Ws, gamma, beta,
            kernels=_CONVOLUTION + _BATCH_NORMALIZATION
            + ('relu_forward', 'relu_backward'))
        _assert_close([y0] + g0, [y1] + g1)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(2, 3, 4), (4, 20, 6, 5), (2, 3, 2, 3, 4),
                                   (64, 20, 24, 24)])
@pytest.mark.parametrize('layout', ['c', 'channels_last'])
def test_sum_over_all_but_channels(dtype, shape, layout, run_both):
    x = _uniform(shape, 23, dtype)
    if layout == 'channels_last':
        x = _channels_last(x)
    axis = (0,) + tuple(range(2, len(shape)))
    (y0, g0), (y1, g1) = run_both(lambda x: F.sum(x, axis=axis), x,
                                  kernels=('channel_sum',))
    tol = {'atol': 1e-9, 'rtol': 1e-9} if dtype == numpy.float64 else {
        'atol': 1e-3, 'rtol': 1e-5}
    testing.assert_allclose(x.astype('d').sum(axis=axis), y1, **tol)
    testing.assert_allclose(y0, y1, **tol)
    numpy.testing.assert_array_equal(g0[0], g1[0])
    assert y1.dtype == dtype and y1.shape == shape[1:2]


def test_sum_kernel_only_for_those_axes(kernel_calls):
    x = _uniform((2, 3, 4, 5), 24)
    with chainer.using_config('use_chainerx_cpp', 'always'):
        for axis in [(0, 2, 3), (3, 0, -2), (-4, 2, 3)]:
            F.sum(x, axis=axis)
        assert kernel_calls == ['channel_sum'] * 3
        del kernel_calls[:]
        for kwargs in [{'axis': (0, 2)}, {'axis': (0, 1, 3)}, {},
                       {'axis': (0, 2, 3), 'keepdims': True}]:
            F.sum(x, **kwargs)
        assert kernel_calls == []


def test_sum_gradient_check(kernel_calls):
    x = _channels_last(_uniform((2, 3, 4, 5), 25, numpy.float64))
    gy = _uniform((3,), 26, numpy.float64)
    with chainer.using_config('use_chainerx_cpp', 'always'):
        chainer.gradient_check.check_backward(
            lambda x: F.sum(x, axis=(0, 2, 3)), x, gy)
    kernel_calls.check(('channel_sum',))


@pytest.mark.parametrize('pool', ['max', 'average'])
def test_pooling_of_channels_last(pool, run_both):
    x = _channels_last(_uniform((2, 20, 8, 8), 27))
    f = {'max': lambda x: F.max_pooling_2d(x, 2),
         'average': lambda x: F.average_pooling_2d(x, 3, 2, 1)}[pool]
    (y0, g0), (y1, g1) = run_both(
        f, x, kernels=(pool + '_pooling_forward', pool + '_pooling_backward'))
    _assert_close([y0] + g0, [y1] + g1)
