import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check


def _softmax(x, axis):
    e = numpy.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('axis', [1, 0, -1])
def test_draws_gumbel_noise_like_numpy(dtype, axis):
    log_pi = numpy.log(numpy.random.RandomState(0).uniform(
        0.1, 1, (3, 4))).astype(dtype)
    numpy.random.seed(5)
    y = F.gumbel_softmax(log_pi, tau=0.5, axis=axis)
    numpy.random.seed(5)
    g = numpy.random.gumbel(size=(3, 4)).astype(dtype)
    expected = _softmax((log_pi + g).astype(numpy.float64) / 0.5, axis)
    assert y.dtype == dtype
    tol = 1e-2 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(y.array, expected, atol=tol, rtol=tol)


def test_backward():
    rng = numpy.random.RandomState(1)
    log_pi = rng.uniform(-1, 1, (3, 4))
    gy = rng.uniform(-1, 1, (3, 4))

    def f(x):
        numpy.random.seed(0)
        return F.gumbel_softmax(x, tau=2.0)

    gradient_check.check_backward(f, log_pi, gy, dtype=numpy.float64)


def test_variable_temperature():
    log_pi = numpy.zeros((2, 3), numpy.float32)
    tau = chainer.Variable(numpy.array(1.5, numpy.float32))
    y = F.gumbel_softmax(log_pi, tau=tau)
    F.sum(y * y).backward()
    assert tau.grad is not None
    numpy.testing.assert_allclose(y.array.sum(axis=1), [1, 1], rtol=1e-6)


def test_zero_dimensional_input():
    y = F.gumbel_softmax(numpy.array(0.3, numpy.float32))
    assert isinstance(y, chainer.Variable)
    assert y.shape == ()
    assert y.dtype == numpy.float32
    assert y.array == 1
