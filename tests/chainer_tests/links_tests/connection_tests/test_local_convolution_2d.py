import numpy

import chainer
from chainer import gradient_check
from chainer.links.connection import local_convolution_2d as local


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def test_parameters():
    link = local.LocalConvolution2D(2, 3, in_size=4, ksize=2)
    assert link.W.shape == (3, 3, 3, 2, 2, 2)
    assert link.b.shape == (3, 3, 3) and (link.b.array == 0).all()
    link = local.LocalConvolution2D(2, 3, (5, 6), (3, 2), stride=2,
                                    nobias=True)
    assert link.W.shape == (3, 2, 3, 2, 3, 2)
    assert link.b is None


def test_forward_against_numpy():
    link = local.LocalConvolution2D(2, 3, 4, 2, stride=2, initial_bias=0.5)
    x = _x(2, 2, 4, 4)
    y = link(x)
    expected = numpy.empty((2, 3, 2, 2))
    for i in range(2):
        for j in range(2):
            window = x[:, :, 2 * i:2 * i + 2, 2 * j:2 * j + 2]
            expected[:, :, i, j] = numpy.einsum(
                'ncyx,ocyx->no', window, link.W.array[:, i, j]) + 0.5
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)


def test_lazy_initialization():
    link = local.LocalConvolution2D(None, 3, ksize=3)
    assert link.W.array is None and link.b.array is None
    y = link(_x(1, 2, 5, 4))
    assert link.W.shape == (3, 3, 2, 2, 3, 3)
    assert y.shape == (1, 3, 3, 2)


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = local.LocalConvolution2D(2, 2, 3, 2, initial_bias=_x(2, 2, 2))
    x = _x(1, 2, 3, 3, dtype=numpy.float64)
    gy = _x(1, 2, 2, 2, dtype=numpy.float64, seed=1)
    gradient_check.check_backward(link, x, gy, params=(link.W, link.b))
