import itertools

import numpy
import pytest

from chainer.backends import cuda
from chainer import testing
from chainer.testing import attr
from chainer.utils import conv
from chainer.utils import conv_nd


def test_as_tuple():
    assert conv_nd.as_tuple(2, 3) == (2, 2, 2)
    assert conv_nd.as_tuple([1, 2], 2) == (1, 2)
    with pytest.raises(AssertionError):
        conv_nd.as_tuple((1, 2), 3)


def _im2col_reference(img, ksize, stride, pad, pval, cover_all, dilate):
    dims = img.shape[2:]
    outs = [conv.get_conv_outsize(d, k, s, p, cover_all, di)
            for d, k, s, p, di in zip(dims, ksize, stride, pad, dilate)]
    col = numpy.full(img.shape[:2] + tuple(ksize) + tuple(outs), pval,
                     img.dtype)
    for kxs in itertools.product(*[range(k) for k in ksize]):
        for pos in itertools.product(*[range(o) for o in outs]):
            src = [o * s - p + k * di for o, s, p, k, di
                   in zip(pos, stride, pad, kxs, dilate)]
            if all(0 <= i < d for i, d in zip(src, dims)):
                col[(slice(None), slice(None)) + kxs + pos] = img[
                    (slice(None), slice(None)) + tuple(src)]
    return col


# shape, ksize, stride, pad, cover_all, dilate
PARAMS = [
    ((2, 3, 7), (3,), (2,), (1,), False, (1,)),
    ((2, 2, 5, 4), (2, 3), (1, 2), (0, 1), True, (2, 1)),
    ((1, 2, 4, 3, 5), (2, 2, 3), (2, 1, 2), (1, 0, 1), True, (1, 1, 1)),
]


@pytest.mark.parametrize('params', PARAMS, ids=range(len(PARAMS)))
def test_im2col_nd_cpu(params):
    shape, ksize, stride, pad, cover_all, dilate = params
    img = numpy.random.RandomState(0).uniform(-1, 1, shape)
    for pval in (0, -numpy.inf):
        col = conv_nd.im2col_nd_cpu(img, ksize, stride, pad, pval=pval,
                                    cover_all=cover_all, dilate=dilate)
        numpy.testing.assert_array_equal(col, _im2col_reference(
            img, ksize, stride, pad, pval, cover_all, dilate))


@pytest.mark.parametrize('params', PARAMS, ids=range(len(PARAMS)))
def test_col2im_nd_cpu_is_the_transpose_of_im2col(params):
    shape, ksize, stride, pad, cover_all, dilate = params
    rng = numpy.random.RandomState(0)
    img = rng.uniform(-1, 1, shape)
    col = conv_nd.im2col_nd_cpu(img, ksize, stride, pad,
                                cover_all=cover_all, dilate=dilate)
    other = rng.uniform(-1, 1, col.shape)
    back = conv_nd.col2im_nd_cpu(other, stride, pad, shape[2:], dilate)
    assert back.shape == img.shape
    testing.assert_allclose((col * other).sum(), (img * back).sum())


def test_2d_matches_conv():
    img = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 6, 5))
    numpy.testing.assert_array_equal(
        conv_nd.im2col_nd_cpu(img, (3, 2), (2, 1), (1, 0), dilate=(1, 2)),
        conv.im2col_cpu(img, 3, 2, 2, 1, 1, 0, dy=1, dx=2))


@attr.gpu
@pytest.mark.parametrize('params', PARAMS, ids=range(len(PARAMS)))
def test_im2col_and_col2im_nd_gpu(params):
    shape, ksize, stride, pad, cover_all, dilate = params
    rng = numpy.random.RandomState(0)
    img = rng.uniform(-1, 1, shape).astype(numpy.float32)
    col = conv_nd.im2col_nd_gpu(cuda.to_gpu(img), ksize, stride, pad,
                                cover_all=cover_all, dilate=dilate)
    expected = conv_nd.im2col_nd_cpu(img, ksize, stride, pad,
                                     cover_all=cover_all, dilate=dilate)
    testing.assert_allclose(col, expected)
    other = rng.uniform(-1, 1, expected.shape).astype(numpy.float32)
    back = conv_nd.col2im_nd_gpu(cuda.to_gpu(other), stride, pad, shape[2:],
                                 dilate)
    testing.assert_allclose(back, conv_nd.col2im_nd_cpu(
        other, stride, pad, shape[2:], dilate), atol=1e-5, rtol=1e-5)
