import numpy

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer.links.connection import depthwise_convolution_2d as dw


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def test_parameters_and_default_initializer():
    numpy.random.seed(0)
    link = dw.DepthwiseConvolution2D(8, 3, 3)
    assert link.W.shape == (3, 8, 3, 3)
    assert link.b.shape == (24,) and (link.b.array == 0).all()
    # HeNormal(1 / sqrt(2)): standard deviation sqrt(1 / fan_in).
    numpy.testing.assert_allclose(
        link.W.array.std(), numpy.sqrt(1 / 72), rtol=0.15)


def test_forward_against_per_channel_convolution():
    link = dw.DepthwiseConvolution2D(2, 2, 2, stride=1, pad=1,
                                     initial_bias=0.5)
    x = _x(1, 2, 3, 3)
    y = link(x)
    assert y.shape == (1, 4, 4, 4)
    for c in range(2):
        for m in range(2):
            expected = F.convolution_2d(
                x[:, c:c + 1], link.W.array[m:m + 1, c:c + 1], pad=1).array
            numpy.testing.assert_allclose(
                y.array[:, c * 2 + m:c * 2 + m + 1], expected + 0.5,
                rtol=1e-5, atol=1e-6)


def test_lazy_initialization_and_nobias():
    link = dw.DepthwiseConvolution2D(None, 2, 3, nobias=True)
    assert link.b is None
    link(_x(1, 3, 4, 4))
    assert link.W.shape == (2, 3, 3, 3)


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = dw.DepthwiseConvolution2D(2, 2, 2, initial_bias=_x(4))
    x = _x(1, 2, 3, 3, dtype=numpy.float64)
    gy = _x(1, 4, 2, 2, dtype=numpy.float64, seed=1)
    gradient_check.check_backward(link, x, gy, params=(link.W, link.b))
