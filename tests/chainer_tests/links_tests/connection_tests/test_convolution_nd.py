import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer.links.connection import convolution_nd


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize('ndim', [1, 2, 3])
def test_forward_matches_function(ndim):
    link = convolution_nd.ConvolutionND(
        ndim, 2, 3, 2, stride=2, pad=1, initial_bias=_x(3, seed=3))
    assert link.W.shape == (3, 2) + (2,) * ndim
    x = _x(*((2, 2) + (4,) * ndim))
    expected = F.convolution_nd(x, link.W, link.b, stride=2, pad=1)
    numpy.testing.assert_array_equal(link(x).array, expected.array)


def test_one_dimensional_against_numpy():
    link = convolution_nd.Convolution1D(2, 3, 3, pad=1, nobias=True)
    x = _x(2, 2, 5)
    xp = numpy.pad(x, ((0, 0), (0, 0), (1, 1)))
    expected = sum(numpy.einsum('ncl,oc->nol', xp[:, :, k:k + 5],
                                link.W.array[:, :, k]) for k in range(3))
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-5,
                                  atol=1e-6)


def test_subclasses():
    link = convolution_nd.Convolution3D(2, 4, (1, 2, 3), dilate=2)
    assert isinstance(link, convolution_nd.ConvolutionND)
    assert link.W.shape == (4, 2, 1, 2, 3)
    assert link.dilate == (2, 2, 2)
    link = convolution_nd.Convolution1D(None, 4, 3, groups=2, nobias=True)
    assert link.b is None
    link(_x(1, 6, 5))
    assert link.W.shape == (4, 3, 3)


def test_lazy_initialization_and_cover_all():
    link = convolution_nd.ConvolutionND(2, 3, 2, stride=2, cover_all=True)
    assert link.ksize == (2, 2) and link.W.array is None
    y = link(_x(1, 4, 5, 5))
    assert link.W.shape == (3, 4, 2, 2)
    assert y.shape == (1, 3, 3, 3)


def test_groups_must_divide_channels():
    with pytest.raises(ValueError):
        convolution_nd.ConvolutionND(2, 3, 4, 1, groups=2)


def test_from_params():
    W = _x(4, 1, 2, 2, 2)
    link = convolution_nd.ConvolutionND.from_params(W, groups=2,
                                                     cover_all=True)
    assert link.ksize == (2, 2, 2) and link.groups == 2
    assert link.cover_all
    numpy.testing.assert_array_equal(link.W.array, W)
    assert (link.b.array == 0).all()


def test_str_like_original():
    assert str(convolution_nd.ConvolutionND(2, 3, 4, 3)) == 'ConvolutionND()'


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = convolution_nd.Convolution3D(2, 2, 2,
                                            initial_bias=_x(2, seed=2))
    x = _x(1, 2, 3, 3, 2, dtype=numpy.float64)
    gy = _x(1, 2, 2, 2, 1, dtype=numpy.float64, seed=1)
    gradient_check.check_backward(link, x, gy, params=(link.W, link.b))
