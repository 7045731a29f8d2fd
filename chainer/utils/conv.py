"""Output sizes and patch arrays of two-dimensional convolution.

``im2col`` gathers, for every output pixel of a convolution (or pooling),
the input values its filter window sees: an image of shape ``(n, c, h, w)``
becomes a *column* array of shape ``(n, c, kh, kw, out_h, out_w)``, so that
a convolution is one matrix product with the filter. ``col2im`` is its
transpose: it sums such an array back into an image, which gives the
gradient of ``im2col``.

The ``*_cpu`` functions take NumPy arrays, the ``*_gpu`` ones CuPy arrays,
and :func:`im2col` / :func:`col2im` pick one by the array type. The
private N-dimensional helpers below them are shared with
:mod:`chainer.utils.conv_nd` and the convolution and pooling functions;
they are written once for NumPy and CuPy. ``_windows`` is the one builder
of strided window views: every im2col on the CPU goes through it.
"""

import itertools

import numpy

from chainer import backend


def get_conv_outsize(size, k, s, p, cover_all=False, d=1):
    """Returns the output length of a convolution along one axis.

    Args:
        size (int): Input length.
        k (int): Filter length.
        s (int): Stride.
        p (int): Padding added on both ends.
        cover_all (bool): If ``True``, one more output is added when the
            last window would leave input elements uncovered.
        d (int): Dilation of the filter.

    Returns:
        int: The output length.

    .. seealso:: :func:`get_deconv_outsize`
    """
    span = (k - 1) * d + 1
    room = size + 2 * p - span
    if cover_all:
        room += s - 1
    return room // s + 1


def get_deconv_outsize(size, k, s, p, cover_all=False, d=1):
    """Returns the output length of a deconvolution along one axis.

    It inverts :func:`get_conv_outsize`: a convolution with the same
    arguments maps the returned length back to ``size``.

    Args:
        size (int): Input length.
        k (int): Filter length.
        s (int): Stride.
        p (int): Padding.
        cover_all (bool): Whether the matching convolution uses
            ``cover_all``.
        d (int): Dilation of the filter.

    Returns:
        int: The output length.

    .. seealso:: :func:`get_conv_outsize`
    """
    span = (k - 1) * d + 1
    out = s * (size - 1) + span - 2 * p
    if cover_all:
        out -= s - 1
    return out


def _padded(x, pad_lo, pad_hi, pval):
    # x with its spatial axes (2, 3, ...) padded by pval; x when no padding.
    if not any(pad_lo) and not any(pad_hi):
        return x
    dims = x.shape[2:]
    shape = x.shape[:2] + tuple(
        lo + d + hi for lo, d, hi in zip(pad_lo, dims, pad_hi))
    xp = backend.get_array_module(x)
    if pval == 0:
        out = xp.zeros(shape, x.dtype)
    else:
        out = xp.full(shape, pval, x.dtype)
    out[(slice(None), slice(None)) + tuple(
        slice(lo, lo + d) for lo, d in zip(pad_lo, dims))] = x
    return out


def _pad_high(dims, ksize, stride, pad, outs, dilate):
    # Padding after each spatial axis that the last window reaches beyond
    # the input padded by pad in front (none where it stays inside).
    return [max(0, (o - 1) * s + (k - 1) * d + 1 - p - size)
            for size, k, s, p, o, d
            in zip(dims, ksize, stride, pad, outs, dilate)]


def _windows(image, first, ksize, stride, outs, dilate):
    # Strided view of the filter windows of an already padded image whose
    # spatial axes start at axis first: the axes before them, then
    # k_1, ..., k_N, then out_1, ..., out_N, then the axes after them.
    # Nothing is copied. Read only: windows overlap in memory.
    last = first + len(ksize)
    steps = image.strides[first:last]
    shape = (image.shape[:first] + tuple(ksize) + tuple(outs)
             + image.shape[last:])
    strides = (image.strides[:first]
               + tuple(st * d for st, d in zip(steps, dilate))
               + tuple(st * s for st, s in zip(steps, stride))
               + image.strides[last:])
    xp = backend.get_array_module(image)
    return xp.lib.stride_tricks.as_strided(image, shape, strides)


def _patches(x, ksize, stride, pad, outs, dilate, pval=0):
    # Strided view (n, c, k_1, ..., k_N, out_1, ..., out_N) of the windows
    # of x padded with pval; nothing is copied beyond the padding.
    pad_hi = _pad_high(x.shape[2:], ksize, stride, pad, outs, dilate)
    return _windows(_padded(x, pad, pad_hi, pval), 2, ksize, stride, outs,
                    dilate)


def _kernel_offsets(ksize, stride, outs, dilate):
    # For each filter offset, its index and the slices of the (padded)
    # image that it visits at all the output positions.
    for offset in itertools.product(*[range(k) for k in ksize]):
        yield offset, tuple(
            slice(i * d, i * d + (o - 1) * s + 1, s)
            for i, d, o, s in zip(offset, dilate, outs, stride))


def _col2im(col, stride, pad, dims, dilate, batch_last=False):
    # Sums the patches of col back into an image of spatial shape dims.
    # col is (n, c, k..., out...), or (c, k..., out..., n) when batch_last;
    # the result is (n, c, dims...) either way (a transposed view in the
    # batch-last case). col may be a broadcast view.
    ndim = len(dims)
    if batch_last:
        lead, tail = (col.shape[0],), (col.shape[-1],)
        ksize = col.shape[1:ndim + 1]
        outs = col.shape[ndim + 1:2 * ndim + 1]
    else:
        lead, tail = col.shape[:2], ()
        ksize = col.shape[2:ndim + 2]
        outs = col.shape[ndim + 2:]
    extent = tuple(max(p + size, (o - 1) * s + (k - 1) * d + 1)
                   for p, size, o, s, k, d
                   in zip(pad, dims, outs, stride, ksize, dilate))
    spans = [(k - 1) * d + 1 for k, d in zip(ksize, dilate)]
    # Windows that do not overlap write each element at most once.
    disjoint = all(s >= span for s, span in zip(stride, spans))
    xp = backend.get_array_module(col)
    # Windows that tile the image without gaps write every element.
    if disjoint and all(s == span == k and o * s == e for s, span, k, o, e
                        in zip(stride, spans, ksize, outs, extent)):
        img = xp.empty(lead + extent + tail, col.dtype)
    else:
        img = xp.zeros(lead + extent + tail, col.dtype)
    lead_slices = (slice(None),) * len(lead)
    for offset, window in _kernel_offsets(ksize, stride, outs, dilate):
        patch = col[lead_slices + offset]
        if disjoint:
            img[lead_slices + window] = patch
        else:
            img[lead_slices + window] += patch
    img = img[lead_slices + tuple(
        slice(p, p + size) for p, size in zip(pad, dims))]
    if batch_last:
        img = xp.moveaxis(img, -1, 0)
    return img


def _out_sizes(img_shape, kh, kw, sy, sx, ph, pw, cover_all, dy, dx,
               out_h, out_w):
    h, w = img_shape[2:]
    if out_h is None:
        out_h = get_conv_outsize(h, kh, sy, ph, cover_all, dy)
    assert out_h > 0, 'Height in the output should be positive.'
    if out_w is None:
        out_w = get_conv_outsize(w, kw, sx, pw, cover_all, dx)
    assert out_w > 0, 'Width in the output should be positive.'
    return out_h, out_w


def im2col_cpu(img, kh, kw, sy, sx, ph, pw, pval=0, cover_all=False, dy=1,
               dx=1, out_h=None, out_w=None):
    """Gathers the filter windows of a NumPy image into a column array.

    Args:
        img (numpy.ndarray): Image of shape ``(n, c, h, w)``.
        kh (int): Filter height.
        kw (int): Filter width.
        sy (int): Vertical stride.
        sx (int): Horizontal stride.
        ph (int): Vertical padding.
        pw (int): Horizontal padding.
        pval (float): Value of the padded elements.
        cover_all (bool): See :func:`get_conv_outsize`.
        dy (int): Vertical dilation.
        dx (int): Horizontal dilation.
        out_h (int): Output height; computed when ``None``.
        out_w (int): Output width; computed when ``None``.

    Returns:
        numpy.ndarray: A new array of shape
        ``(n, c, kh, kw, out_h, out_w)``.
    """
    outs = _out_sizes(img.shape, kh, kw, sy, sx, ph, pw, cover_all, dy, dx,
                      out_h, out_w)
    return _patches(img, (kh, kw), (sy, sx), (ph, pw), outs, (dy, dx),
                    pval).copy()


_im2col_kernel_code = '''
    int out_x = i % out_w;
    int rest = i / out_w;
    int out_y = rest % out_h;
    rest /= out_h;
    int kx = rest % kw;
    rest /= kw;
    int ky = rest % kh;
    int plane = rest / kh;
    int y = out_y * sy - ph + ky * dy;
    int x = out_x * sx - pw + kx * dx;
    if (0 <= y && y < h && 0 <= x && x < w) {
        col = img[(plane * h + y) * w + x];
    } else {
        col = 0;
    }
'''

_col2im_kernel_code = '''
    int x = i % w + pw;
    int rest = i / w;
    int y = rest % h + ph;
    int plane = rest / h;
    T val = 0;
    for (int ky = 0; ky < kh; ++ky) {
        int oy = y - ky * dy;
        if (oy < 0 || oy % sy != 0) continue;
        oy /= sy;
        if (oy >= out_h) continue;
        for (int kx = 0; kx < kw; ++kx) {
            int ox = x - kx * dx;
            if (ox < 0 || ox % sx != 0) continue;
            ox /= sx;
            if (ox >= out_w) continue;
            val = val + col[(((plane * kh + ky) * kw + kx) * out_h + oy)
                            * out_w + ox];
        }
    }
    img = val;
'''

_kernel_params = ('int32 h, int32 w, int32 out_h, int32 out_w, int32 kh, '
                  'int32 kw, int32 sy, int32 sx, int32 ph, int32 pw, '
                  'int32 dy, int32 dx')


def im2col_gpu(img, kh, kw, sy, sx, ph, pw, cover_all=False, dy=1, dx=1,
               out_h=None, out_w=None):
    """Gathers the filter windows of a CuPy image into a column array.

    The arguments are those of :func:`im2col_cpu` except ``pval``: the
    padding is zero.

    Returns:
        cupy.ndarray: A new array of shape ``(n, c, kh, kw, out_h, out_w)``.
    """
    from chainer.backends import cuda

    out_h, out_w = _out_sizes(img.shape, kh, kw, sy, sx, ph, pw, cover_all,
                              dy, dx, out_h, out_w)
    n, c, h, w = img.shape
    col = cuda.cupy.empty((n, c, kh, kw, out_h, out_w), img.dtype)
    cuda.elementwise(
        'raw T img, ' + _kernel_params, 'T col', _im2col_kernel_code,
        'chainer_im2col')(
            cuda.cupy.ascontiguousarray(img),
            h, w, out_h, out_w, kh, kw, sy, sx, ph, pw, dy, dx, col)
    return col


def im2col(img, kh, kw, sy, sx, ph, pw, cover_all=False, dy=1, dx=1,
           out_h=None, out_w=None):
    """Calls :func:`im2col_gpu` or :func:`im2col_cpu` by the array type."""
    if backend.get_array_module(img) is numpy:
        func = im2col_cpu
    else:
        func = im2col_gpu
    return func(img, kh, kw, sy, sx, ph, pw, cover_all=cover_all, dy=dy,
                dx=dx, out_h=out_h, out_w=out_w)


def col2im_cpu(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """Sums a NumPy column array back into an image.

    Args:
        col (numpy.ndarray): Array of shape
            ``(n, c, kh, kw, out_h, out_w)``.
        sy (int): Vertical stride.
        sx (int): Horizontal stride.
        ph (int): Vertical padding.
        pw (int): Horizontal padding.
        h (int): Image height.
        w (int): Image width.
        dy (int): Vertical dilation.
        dx (int): Horizontal dilation.

    Returns:
        numpy.ndarray: The image of shape ``(n, c, h, w)``, where each
        element is the sum of the column entries that gathered it.
    """
    return _col2im(col, (sy, sx), (ph, pw), (h, w), (dy, dx))


def col2im_gpu(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """Sums a CuPy column array back into an image.

    The arguments are those of :func:`col2im_cpu`.

    Returns:
        cupy.ndarray: The image of shape ``(n, c, h, w)``.
    """
    from chainer.backends import cuda

    n, c, kh, kw, out_h, out_w = col.shape
    img = cuda.cupy.empty((n, c, h, w), col.dtype)
    cuda.elementwise(
        'raw T col, ' + _kernel_params, 'T img', _col2im_kernel_code,
        'chainer_col2im')(
            cuda.cupy.ascontiguousarray(col),
            h, w, out_h, out_w, kh, kw, sy, sx, ph, pw, dy, dx, img)
    return img


def col2im(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """Calls :func:`col2im_gpu` or :func:`col2im_cpu` by the array type."""
    if backend.get_array_module(col) is numpy:
        func = col2im_cpu
    else:
        func = col2im_gpu
    return func(col, sy, sx, ph, pw, h, w, dy, dx)
