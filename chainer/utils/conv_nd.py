"""Patch arrays of N-dimensional convolution.

The N-dimensional counterparts of :mod:`chainer.utils.conv`: an input of
shape ``(n, c, d_1, ..., d_N)`` becomes a column array of shape
``(n, c, k_1, ..., k_N, out_1, ..., out_N)`` and back. The CPU and GPU
variants share one implementation on strided views.
"""

from chainer.utils.conv import _col2im
from chainer.utils.conv import _patches
from chainer.utils.conv import get_conv_outsize  # NOQA


def as_tuple(x, n):
    """Returns ``x`` as a tuple of length ``n``.

    Args:
        x: A sequence of length ``n``, or a single value to repeat.
        n (int): The length.

    Returns:
        tuple: ``tuple(x)``, or ``(x,) * n`` for a single value.
    """
    if hasattr(x, '__getitem__'):
        assert len(x) == n
        return tuple(x)
    return (x,) * n


def _im2col_nd(img, ksize, stride, pad, pval, cover_all, dilate):
    ndim = img.ndim - 2
    dilate = as_tuple(dilate, ndim)
    assert ndim == len(ksize) == len(stride) == len(pad)
    outs = tuple(get_conv_outsize(d, k, s, p, cover_all, di)
                 for d, k, s, p, di
                 in zip(img.shape[2:], ksize, stride, pad, dilate))
    assert all(out > 0 for out in outs), 'Output sizes should be positive.'
    return _patches(img, tuple(ksize), stride, pad, outs, dilate,
                    pval).copy()


def im2col_nd_cpu(img, ksize, stride, pad, pval=0, cover_all=False,
                  dilate=1):
    """Gathers the filter windows of a NumPy array into a column array.

    Args:
        img (numpy.ndarray): Input of shape ``(n, c, d_1, ..., d_N)``.
        ksize (tuple of int): Filter size.
        stride (tuple of int): Strides.
        pad (tuple of int): Paddings.
        pval (float): Value of the padded elements.
        cover_all (bool): See :func:`chainer.utils.conv.get_conv_outsize`.
        dilate (int or tuple of int): Dilations.

    Returns:
        numpy.ndarray: A new array of shape
        ``(n, c, k_1, ..., k_N, out_1, ..., out_N)``.
    """
    return _im2col_nd(img, ksize, stride, pad, pval, cover_all, dilate)


def im2col_nd_gpu(img, ksize, stride, pad, cover_all=False, dilate=1):
    """Gathers the filter windows of a CuPy array into a column array.

    The arguments are those of :func:`im2col_nd_cpu` except ``pval``: the
    padding is zero.
    """
    return _im2col_nd(img, ksize, stride, pad, 0, cover_all, dilate)


def im2col_nd(img, ksize, stride, pad, cover_all=False, dilate=1):
    """Calls :func:`im2col_nd_gpu` or :func:`im2col_nd_cpu`."""
    return _im2col_nd(img, ksize, stride, pad, 0, cover_all, dilate)


def _col2im_nd(col, stride, pad, dims, dilate):
    ndim = len(dims)
    dilate = as_tuple(dilate, ndim)
    assert col.ndim == 2 * ndim + 2
    assert ndim == len(stride) == len(pad)
    return _col2im(col, stride, pad, tuple(dims), dilate)


def col2im_nd_cpu(col, stride, pad, dims, dilate=1):
    """Sums a NumPy column array back into an N-dimensional image.

    Args:
        col (numpy.ndarray): Array of shape
            ``(n, c, k_1, ..., k_N, out_1, ..., out_N)``.
        stride (tuple of int): Strides.
        pad (tuple of int): Paddings.
        dims (tuple of int): Spatial shape ``(d_1, ..., d_N)`` of the image.
        dilate (int or tuple of int): Dilations.

    Returns:
        numpy.ndarray: The image of shape ``(n, c, d_1, ..., d_N)``.
    """
    return _col2im_nd(col, stride, pad, dims, dilate)


def col2im_nd_gpu(col, stride, pad, dims, dilate=1):
    """Sums a CuPy column array back into an N-dimensional image.

    The arguments are those of :func:`col2im_nd_cpu`.
    """
    return _col2im_nd(col, stride, pad, dims, dilate)


def col2im_nd(col, stride, pad, dims, dilate=1):
    """Calls :func:`col2im_nd_gpu` or :func:`col2im_nd_cpu`."""
    return _col2im_nd(col, stride, pad, dims, dilate)

