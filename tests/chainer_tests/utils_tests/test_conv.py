import itertools

import numpy
import pytest

from chainer.backends import cuda
from chainer import testing
from chainer.testing import attr
from chainer.utils import conv


@pytest.mark.parametrize('size, k, s, p, cover_all, d, expected', [
    (10, 3, 1, 0, False, 1, 8),
    (10, 3, 2, 1, False, 1, 5),
    (10, 3, 4, 0, False, 1, 2),
    (10, 3, 4, 0, True, 1, 3),
    (10, 3, 1, 0, False, 2, 6),
    (7, 3, 2, 1, True, 2, 3),
])
def test_get_conv_outsize(size, k, s, p, cover_all, d, expected):
    assert conv.get_conv_outsize(size, k, s, p, cover_all, d) == expected


@pytest.mark.parametrize('size, k, s, p, cover_all, d', [
    (4, 3, 2, 1, False, 1), (4, 3, 2, 1, True, 2), (5, 2, 3, 0, False, 1),
    (3, 3, 1, 1, True, 1)])
def test_deconv_outsize_inverts_conv_outsize(size, k, s, p, cover_all, d):
    out = conv.get_deconv_outsize(size, k, s, p, cover_all, d)
    assert conv.get_conv_outsize(out, k, s, p, cover_all, d) == size


def _im2col_reference(img, kh, kw, sy, sx, ph, pw, pval, cover_all, dy, dx):
    n, c, h, w = img.shape
    out_h = conv.get_conv_outsize(h, kh, sy, ph, cover_all, dy)
    out_w = conv.get_conv_outsize(w, kw, sx, pw, cover_all, dx)
    col = numpy.empty((n, c, kh, kw, out_h, out_w), img.dtype)
    for i, j, y, x in itertools.product(range(kh), range(kw), range(out_h),
                                        range(out_w)):
        row = y * sy - ph + i * dy
        column = x * sx - pw + j * dx
        if 0 <= row < h and 0 <= column < w:
            col[:, :, i, j, y, x] = img[:, :, row, column]
        else:
            col[:, :, i, j, y, x] = pval
    return col


# kh, kw, sy, sx, ph, pw, cover_all, dy, dx
PARAMS = [
    (3, 3, 1, 1, 0, 0, False, 1, 1),
    (3, 2, 2, 3, 1, 2, False, 1, 1),
    (3, 2, 2, 3, 1, 2, True, 1, 1),
    (2, 3, 1, 2, 0, 1, True, 2, 3),
    (1, 1, 2, 2, 0, 0, False, 1, 1),
]


@pytest.mark.parametrize('params', PARAMS, ids=range(len(PARAMS)))
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_im2col_cpu(params, dtype):
    kh, kw, sy, sx, ph, pw, cover_all, dy, dx = params
    img = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 7, 8)).astype(
        dtype)
    for pval in (0, -numpy.inf):
        col = conv.im2col_cpu(img, kh, kw, sy, sx, ph, pw, pval=pval,
                              cover_all=cover_all, dy=dy, dx=dx)
        expected = _im2col_reference(img, kh, kw, sy, sx, ph, pw, pval,
                                     cover_all, dy, dx)
        assert col.dtype == dtype and col.flags.c_contiguous
        numpy.testing.assert_array_equal(col, expected)


@pytest.mark.parametrize('params', PARAMS, ids=range(len(PARAMS)))
def test_col2im_cpu_is_the_transpose_of_im2col(params):
    kh, kw, sy, sx, ph, pw, cover_all, dy, dx = params
    rng = numpy.random.RandomState(0)
    img = rng.uniform(-1, 1, (2, 3, 7, 8))
    col = conv.im2col_cpu(img, kh, kw, sy, sx, ph, pw, cover_all=cover_all,
                          dy=dy, dx=dx)
    other = rng.uniform(-1, 1, col.shape)
    back = conv.col2im_cpu(other, sy, sx, ph, pw, 7, 8, dy, dx)
    assert back.shape == img.shape
    testing.assert_allclose((col * other).sum(), (img * back).sum())


def test_explicit_output_size():
    img = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    col = conv.im2col_cpu(img, 2, 2, 2, 2, 0, 0, out_h=1, out_w=2)
    assert col.shape == (1, 1, 2, 2, 1, 2)


def test_output_must_be_positive():
    with pytest.raises(AssertionError, match='Height'):
        conv.im2col_cpu(numpy.ones((1, 1, 2, 2), numpy.float32), 3, 3, 1, 1,
                        0, 0)


@attr.gpu
@pytest.mark.parametrize('params', PARAMS, ids=range(len(PARAMS)))
def test_im2col_and_col2im_gpu(params):
    kh, kw, sy, sx, ph, pw, cover_all, dy, dx = params
    rng = numpy.random.RandomState(0)
    img = rng.uniform(-1, 1, (2, 3, 7, 8)).astype(numpy.float32)
    col = conv.im2col_gpu(cuda.to_gpu(img), kh, kw, sy, sx, ph, pw,
                          cover_all=cover_all, dy=dy, dx=dx)
    expected = conv.im2col_cpu(img, kh, kw, sy, sx, ph, pw,
                               cover_all=cover_all, dy=dy, dx=dx)
    testing.assert_allclose(col, expected)
    other = rng.uniform(-1, 1, expected.shape).astype(numpy.float32)
    back = conv.col2im_gpu(cuda.to_gpu(other), sy, sx, ph, pw, 7, 8, dy, dx)
    testing.assert_allclose(
        back, conv.col2im_cpu(other, sy, sx, ph, pw, 7, 8, dy, dx),
        atol=1e-5, rtol=1e-5)
    assert isinstance(conv.im2col(cuda.to_gpu(img), kh, kw, sy, sx, ph, pw),
                      cuda.ndarray)
