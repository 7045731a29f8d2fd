import numpy
import pytest

from chainer import functions as F
from chainer.links.connection import mlp_convolution_2d as mlp


def _x(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(
        numpy.float32)


def test_children_and_forward():
    link = mlp.MLPConvolution2D(2, (3, 4, 2), 3, pad=1, bias_init=0.1)
    assert len(link) == 3
    assert link[0].W.shape == (3, 2, 3, 3)
    assert link[1].W.shape == (4, 3, 1, 1)
    assert link[2].W.shape == (2, 4, 1, 1)
    x = _x(1, 2, 4, 4)
    h = F.relu(F.convolution_2d(x, link[0].W, link[0].b, pad=1))
    h = F.relu(F.convolution_2d(h, link[1].W, link[1].b))
    h = F.convolution_2d(h, link[2].W, link[2].b)
    numpy.testing.assert_array_equal(link(x).array, h.array)


def test_lazy_two_argument_form_and_activation():
    link = mlp.MLPConvolution2D((3, 2), 1, activation=F.tanh)
    assert link[0].W.array is None
    y = link(_x(1, 5, 2, 2))
    assert link[0].W.shape == (3, 5, 1, 1)
    h = F.tanh(F.convolution_2d(_x(1, 5, 2, 2), link[0].W, link[0].b))
    numpy.testing.assert_allclose(
        y.array, F.convolution_2d(h, link[1].W, link[1].b).array, rtol=1e-6)


def test_str_like_original():
    conv = ('Convolution2D(in_channels={}, out_channels={}, ksize={}, '
            'stride=(1, 1), pad=(0, 0), nobias=False, dilate=(1, 1), '
            'groups=1)')
    assert str(mlp.MLPConvolution2D(3, (4, 5), 3)) == '\n'.join([
        'MLPConvolution2D(',
        '  (0): ' + conv.format(3, 4, 3) + ',',
        '  (1): ' + conv.format(4, 5, 1) + ',',
        ')'])


def test_wscale_refused():
    with pytest.raises(ValueError, match='wscale'):
        mlp.MLPConvolution2D(1, (2,), 1, wscale=2)
    with pytest.raises(TypeError, match='wscale'):
        mlp.MLPConvolution2D(1, (2,), 1, 1, 0, F.relu, 2)
