import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer.links.connection import convolution_2d


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _reference_conv(x, W, b, stride, pad):
    # Direct sum over the filter taps, in float64.
    n, c, h, w = x.shape
    o, _, kh, kw = W.shape
    sy, sx = stride
    ph, pw = pad
    xp = numpy.pad(x.astype(numpy.float64),
                   ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    oh = (h + 2 * ph - kh) // sy + 1
    ow = (w + 2 * pw - kw) // sx + 1
    y = numpy.zeros((n, o, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i:i + sy * oh:sy, j:j + sx * ow:sx]
            y += numpy.einsum('nchw,oc->nohw', patch, W[:, :, i, j])
    if b is not None:
        y += b[:, None, None]
    return y


@pytest.mark.parametrize('stride,pad', [(1, 0), (2, 1), ((1, 2), (2, 0))])
def test_forward_matches_reference(stride, pad):
    link = convolution_2d.Convolution2D(
        3, 4, (3, 2), stride=stride, pad=pad, initial_bias=_x(4, seed=5))
    x = _x(2, 3, 6, 5)
    y = link(x)
    expected = _reference_conv(
        x, link.W.array, link.b.array, convolution_2d._pair(stride),
        convolution_2d._pair(pad))
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-5)


def test_parameters():
    numpy.random.seed(0)
    link = convolution_2d.Convolution2D(4, 6, 3, groups=2, nobias=True)
    assert link.W.shape == (6, 2, 3, 3)
    assert link.b is None
    assert link.stride == (1, 1) and link.pad == (0, 0)
    assert link.dilate == (1, 1) and link.groups == 2
    link = convolution_2d.Convolution2D(2, 3, 2)
    assert link.b.shape == (3,) and (link.b.array == 0).all()


def test_lazy_initialization_two_arguments():
    link = convolution_2d.Convolution2D(4, 3)
    assert link.in_channels is None and link.ksize == 3
    assert link.W.array is None
    y = link(_x(1, 2, 5, 5))
    assert link.W.shape == (4, 2, 3, 3)
    assert y.shape == (1, 4, 3, 3)


def test_groups_and_dilation_match_function():
    link = convolution_2d.Convolution2D(
        None, 4, 3, pad=2, dilate=2, groups=2, initial_bias=0.25)
    x = _x(2, 6, 5, 5)
    y = link(x)
    assert link.W.shape == (4, 3, 3, 3)
    expected = F.convolution_2d(x, link.W, link.b, pad=2, dilate=2,
                                groups=2)
    numpy.testing.assert_array_equal(y.array, expected.array)


def test_groups_must_divide_channels():
    with pytest.raises(ValueError, match='output channels'):
        convolution_2d.Convolution2D(4, 3, 1, groups=2)
    with pytest.raises(ValueError, match='input channels'):
        convolution_2d.Convolution2D(3, 4, 1, groups=2)


def test_deterministic_argument_refused():
    with pytest.raises(ValueError, match='deterministic'):
        convolution_2d.Convolution2D(1, 1, 1, deterministic=True)


def test_from_params():
    W = _x(4, 1, 2, 3)
    link = convolution_2d.Convolution2D.from_params(
        W, _x(4), stride=2, groups=2)
    assert link.W.shape == (4, 1, 2, 3)
    assert link.groups == 2 and link.stride == (2, 2)
    numpy.testing.assert_array_equal(link.W.array, W)
    with pytest.raises(ValueError):
        convolution_2d.Convolution2D.from_params(W, _x(3))


def test_str_like_original():
    assert str(convolution_2d.Convolution2D(3, 4, 3)) == (
        'Convolution2D(in_channels=3, out_channels=4, ksize=3, '
        'stride=(1, 1), pad=(0, 0), nobias=False, dilate=(1, 1), groups=1)')
    assert str(convolution_2d.Convolution2D(
        4, (2, 3), stride=(1, 2), pad=1, dilate=2, groups=2,
        nobias=True)) == (
        'Convolution2D(in_channels=None, out_channels=4, ksize=(2, 3), '
        'stride=(1, 2), pad=(1, 1), nobias=True, dilate=(2, 2), groups=2)')


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = convolution_2d.Convolution2D(
            2, 3, 2, stride=2, pad=1, initial_bias=_x(3, seed=4))
    x = _x(2, 2, 3, 3, dtype=numpy.float64)
    gy = _x(2, 3, 2, 2, dtype=numpy.float64, seed=1)
    gradient_check.check_backward(link, x, gy, params=(link.W, link.b))


@pytest.mark.gpu
def test_gpu():
    from chainer.backends import cuda
    link = convolution_2d.Convolution2D(None, 4, 3)
    x = _x(2, 3, 5, 5)
    link.to_gpu()
    y = link(cuda.to_gpu(x))
    link.to_cpu()
    numpy.testing.assert_allclose(
        cuda.to_cpu(y.array), link(x).array, rtol=1e-4, atol=1e-5)
