import numpy

import chainer
from chainer import gradient_check
from chainer.links.activation import prelu


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def test_shared_slope():
    link = prelu.PReLU()
    assert link.W.shape == () and link.W.array == numpy.float32(0.25)
    x = _x(2, 3)
    numpy.testing.assert_allclose(
        link(x).array, numpy.where(x > 0, x, 0.25 * x), rtol=1e-6)


def test_slope_per_channel():
    link = prelu.PReLU((3,), init=0.1)
    link.W.array[...] = [0.1, 0.2, 0.3]
    x = _x(2, 3, 4)
    slope = numpy.array([0.1, 0.2, 0.3], numpy.float32)[:, None]
    numpy.testing.assert_allclose(
        link(x).array, numpy.where(x > 0, x, slope * x), rtol=1e-6)


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = prelu.PReLU((3,))
    x = _x(2, 3, dtype=numpy.float64)
    x[numpy.abs(x) < 0.05] = 0.5
    gradient_check.check_backward(
        link, x, _x(2, 3, dtype=numpy.float64, seed=1), params=(link.W,))
