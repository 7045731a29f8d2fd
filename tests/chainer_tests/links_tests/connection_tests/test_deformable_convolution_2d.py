import numpy

from chainer import functions as F
from chainer import initializers
from chainer.links.connection import deformable_convolution_2d as dconv


def _x(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(
        numpy.float32)


def test_children_and_parameters():
    link = dconv.DeformableConvolution2D(2, 3, (2, 3), pad=1)
    assert link.offset_conv.W.shape == (12, 2, 2, 3)
    assert link.deform_conv.W.shape == (3, 2, 2, 3)
    # The deformable filters and both biases start at zero.
    assert (link.deform_conv.W.array == 0).all()
    assert (link.deform_conv.b.array == 0).all()
    assert (link.offset_conv.b.array == 0).all()
    assert sorted(name for name, _ in link.namedparams()) == [
        '/deform_conv/W', '/deform_conv/b', '/offset_conv/W',
        '/offset_conv/b']


def test_forward_matches_function():
    link = dconv.DeformableConvolution2D(
        2, 3, 3, pad=1, deform_initialW=initializers.Normal(),
        deform_initial_bias=_x(3, seed=2))
    x = _x(1, 2, 4, 4)
    offset = F.convolution_2d(x, link.offset_conv.W, link.offset_conv.b,
                              pad=1)
    expected = F.deformable_convolution_2d_sampler(
        x, offset, link.deform_conv.W, link.deform_conv.b, pad=1)
    numpy.testing.assert_array_equal(link(x).array, expected.array)


def test_zero_offset_is_plain_convolution():
    link = dconv.DeformableConvolution2D(
        2, 3, 3, offset_initialW=0, deform_initialW=initializers.Normal(),
        deform_nobias=True)
    assert link.deform_conv.b is None
    x = _x(2, 2, 5, 5)
    numpy.testing.assert_allclose(
        link(x).array, F.convolution_2d(x, link.deform_conv.W).array,
        rtol=1e-5, atol=1e-5)


def test_sampler_lazy_initialization():
    link = dconv.DeformableConvolution2DSampler(None, 3, 2)
    assert link.W.array is None and link.b.array is None
    x = _x(1, 2, 3, 3)
    offset = numpy.zeros((1, 8, 2, 2), numpy.float32)
    assert link(x, offset).shape == (1, 3, 2, 2)
    assert link.W.shape == (3, 2, 2, 2)
    assert link.b.shape == (3,)
