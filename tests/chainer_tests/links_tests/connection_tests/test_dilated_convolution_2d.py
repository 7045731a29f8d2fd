import numpy

from chainer import functions as F
from chainer.links.connection import dilated_convolution_2d as dil


def _x(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(
        numpy.float32)


def test_forward_is_convolution_with_spread_filter():
    link = dil.DilatedConvolution2D(2, 3, 2, dilate=2, initial_bias=0.1)
    assert link.W.shape == (3, 2, 2, 2)
    x = _x(1, 2, 5, 5)
    spread = numpy.zeros((3, 2, 3, 3), numpy.float32)
    spread[:, :, ::2, ::2] = link.W.array
    numpy.testing.assert_allclose(
        link(x).array, F.convolution_2d(x, spread).array + 0.1,
        rtol=1e-5, atol=1e-6)


def test_lazy_initialization_two_arguments():
    link = dil.DilatedConvolution2D(3, 3, pad=2, dilate=2, nobias=True)
    assert link.b is None and link.W.array is None
    y = link(_x(1, 2, 5, 5))
    assert link.W.shape == (3, 2, 3, 3)
    assert y.shape == (1, 3, 5, 5)
    assert link.dilate == (2, 2) and link.pad == (2, 2)
