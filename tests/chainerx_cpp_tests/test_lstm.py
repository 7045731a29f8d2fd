"""The LSTM cell kernels against the NumPy code path."""

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
import chainerx_cpp

pytestmark = pytest.mark.skipif(
    not chainerx_cpp.is_available(),
    reason='the chainerx_cpp kernels are not built')

# (rows of c, rows of x, units, trailing axes)
_SHAPES = [
    (3, 3, 5, ()),
    (4, 2, 5, ()),
    (4, 0, 5, ()),
    (2, 2, 3, (2, 3)),
    (5, 3, 4, (7,)),
    (20, 20, 650, ()),
    (160, 160, 1024, ()),  # on several threads
]


def _tol(dtype):
    if dtype == numpy.float32:
        return {'atol': 1e-6, 'rtol': 1e-5}
    return {'atol': 1e-13, 'rtol': 1e-12}


def _inputs(shape, dtype, transposed):
    cell_rows, rows, units, rest = shape
    rng = numpy.random.RandomState(0)
    c = rng.randn(cell_rows, units, *rest).astype(dtype)
    x_shape = (rows, 4 * units) + rest
    if transposed:
        x = (rng.randn(*x_shape[::-1]) * 3).astype(dtype).T
    else:
        x = (rng.randn(*x_shape) * 3).astype(dtype)
    gc = rng.randn(*c.shape).astype(dtype)
    gh = rng.randn(rows, units, *rest).astype(dtype)
    return c, x, gc, gh


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', _SHAPES)
@pytest.mark.parametrize('transposed', [False, True])
@pytest.mark.parametrize('grads', ['both', 'c', 'h'])
def test_forward_backward(dtype, shape, transposed, grads, in_both_modes):
    c0, x0, gc, gh = _inputs(shape, dtype, transposed)

    def compute():
        c = chainer.Variable(c0.copy())
        x = chainer.Variable(x0.copy(order='K'))
        c_next, h = F.lstm(c, x)
        outputs, grad_outputs = [], []
        if grads != 'h':
            outputs.append(c_next)
            grad_outputs.append(gc)
        if grads != 'c':
            outputs.append(h)
            grad_outputs.append(gh)
        gc_prev, gx = chainer.grad(outputs, [c, x], grad_outputs)
        return c_next.array, h.array, gc_prev.array, gx.array

    expected, actual = in_both_modes(
        compute, ('lstm_forward', 'lstm_backward') if x0.size else ())
    for e, a in zip(expected, actual):
        assert a.dtype == e.dtype and a.shape == e.shape
        testing.assert_allclose(e, a, **_tol(dtype))


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_double_backward(dtype, kernel_calls):
    rng = numpy.random.RandomState(2)
    c = rng.uniform(-1, 1, (3, 2)).astype(dtype)
    x = rng.uniform(-1, 1, (2, 8)).astype(dtype)
    grads = [rng.uniform(-1, 1, (3, 2)).astype(dtype),
             rng.uniform(-1, 1, (2, 2)).astype(dtype)]
    ggrads = [rng.uniform(-1, 1, c.shape).astype(dtype),
              rng.uniform(-1, 1, x.shape).astype(dtype)]
    tol = {'atol': 1e-2, 'rtol': 1e-2} if dtype == numpy.float32 else {}
    with chainer.using_config('use_chainerx_cpp', 'always'):
        gradient_check.check_double_backward(
            F.lstm, (c, x), grads, ggrads, dtype=numpy.float64, **tol)
    kernel_calls.check(('lstm_forward', 'lstm_backward'))


def test_kernels_reject_bad_input():
    kernels = chainerx_cpp.get_kernels()
    c = numpy.zeros((3, 5), numpy.float32)
    x = numpy.zeros((3, 20), numpy.float32)
    with pytest.raises(ValueError):
        kernels.lstm_forward(c, x[:, :16])
    with pytest.raises(ValueError):
        kernels.lstm_forward(c[:2], x)
    with pytest.raises(ValueError):
        kernels.lstm_forward(c, x.astype(numpy.float64))
    with pytest.raises(ValueError):
        kernels.lstm_backward(c, x, c, None, c[:, :4])


def test_dispatch(kernel_calls):
    c = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    x = chainer.Variable(numpy.ones((2, 12), numpy.float32))
    with chainer.using_config('use_chainerx_cpp', 'always'):
        c_next, h = F.lstm(c, x)
        chainer.grad([h], [x])
    assert kernel_calls == ['lstm_forward', 'lstm_backward']
