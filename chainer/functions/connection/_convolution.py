"""Array-level convolution shared by the 2-D and N-D function nodes.

A convolution gathers the filter windows of the input into a column array
``(groups, c_I / groups * k, n * out)`` so that each group is one matrix
product with its filters, batch included; the same array serves the filter
gradient. A deconvolution (transposed convolution) multiplies the other way
and sums the resulting columns back into the image.

Two layouts of the batch and spatial axes are used, whichever makes the
strided copies of im2col and col2im run over longer contiguous rows:
batch-major ``(c, n, spatial...)`` copies rows of the last spatial length,
batch-last ``(c, spatial..., n)`` rows of ``n`` (times that length at
stride 1) but costs transposed copies in and out. Results are returned
C-contiguous, or channels-last from the compiled kernels (see
``chainerx_cpp/convolution.cpp``). Everything here works on NumPy and CuPy
arrays alike.
"""

from chainer import _kernels
from chainer import backend
from chainer import utils
from chainer.utils import conv


# Spatial rows shorter than this make the batch-last layout pay off.
_SHORT_ROW = 16


def _use_batch_last(spatial_shape):
    return spatial_shape[-1] < _SHORT_ROW


def out_sizes(dims, ksize, stride, pad, cover_all, dilate):
    """Output spatial shape of a convolution."""
    return tuple(
        conv.get_conv_outsize(d, k, s, p, cover_all, di)
        for d, k, s, p, di in zip(dims, ksize, stride, pad, dilate))


def _contiguous(a):
    if a is None:
        return None
    return backend.get_array_module(a).ascontiguousarray(a)


def _onednn_geometry(dims, ksize, stride, pad, outs, dilate):
    # Stride, both paddings and dilation for the compiled kernels. The far
    # padding is what the last window needs (cover_all adds to it), and
    # never negative: input rows no window reaches are simply not read.
    pad_hi = conv._pad_high(dims, ksize, stride, pad, outs, dilate)
    return list(stride), list(pad), pad_hi, list(dilate)


def _to_layout(x, batch_last):
    # (n, c, d...) -> (c, d..., n) or (c, n, d...), C-contiguous (no copy
    # if it already is).
    xp = backend.get_array_module(x)
    if batch_last:
        return xp.ascontiguousarray(xp.moveaxis(x, 0, -1))
    return xp.ascontiguousarray(x.swapaxes(0, 1))


def _from_layout(y, batch_last):
    # The inverse of _to_layout, C-contiguous.
    xp = backend.get_array_module(y)
    if batch_last:
        return xp.ascontiguousarray(xp.moveaxis(y, -1, 0))
    return xp.ascontiguousarray(y.swapaxes(0, 1))


def _columns(x, ksize, stride, pad, outs, dilate, groups, batch_last):
    # (groups, c_I / groups * prod(ksize), n * prod(outs)) in the layout
    # (of the last axis) that batch_last selects; a new array.
    xp = backend.get_array_module(x)
    n, c = x.shape[:2]
    dims = x.shape[2:]
    pad_hi = conv._pad_high(dims, ksize, stride, pad, outs, dilate)
    # The input, padded and in the layout, in one copy.
    padded = tuple(p + size + hi for p, size, hi in zip(pad, dims, pad_hi))
    shape = (c,) + padded + (n,) if batch_last else (c, n) + padded
    if any(pad) or any(pad_hi):
        image = xp.zeros(shape, x.dtype)
    else:
        image = xp.empty(shape, x.dtype)
    interior = tuple(slice(p, p + size) for p, size in zip(pad, dims))
    if batch_last:
        image[(slice(None),) + interior] = xp.moveaxis(x, 0, -1)
        # (c, k..., out..., n)
        patches = conv._windows(image, 1, ksize, stride, outs, dilate)
    else:
        image[(slice(None), slice(None)) + interior] = x.swapaxes(0, 1)
        # (c, n, k..., out...) seen as (c, k..., n, out...)
        ndim = len(ksize)
        patches = conv._windows(image, 2, ksize, stride, outs, dilate)
        patches = patches.transpose(
            (0,) + tuple(range(2, 2 + ndim)) + (1,)
            + tuple(range(2 + ndim, 2 + 2 * ndim)))
    return patches.reshape(groups, c // groups * utils.size_of_shape(ksize),
                           n * utils.size_of_shape(outs))


def forward(x, W, b, stride, pad, outs, dilate, groups):
    """Convolution of ``x`` with ``W`` (plus ``b``), of spatial shape outs.

    Returns:
        The output of shape ``(n, c_O) + outs`` and the dtype of ``x``.
    """
    if x.ndim <= 5:
        y = _kernels.call((x, W, b), _kernels.FLOAT32, lambda k: (
            k.convolution_forward(
                _kernels.plain(x), _contiguous(W), _contiguous(b),
                x.shape[:1] + W.shape[:1] + tuple(outs),
                *_onednn_geometry(x.shape[2:], W.shape[2:], stride, pad,
                                  outs, dilate), groups)))
        if y is not None:
            return y
    xp = backend.get_array_module(x)
    n = x.shape[0]
    out_c = W.shape[0]
    batch_last = _use_batch_last(outs)
    cols = _columns(x, W.shape[2:], stride, pad, outs, dilate, groups,
                    batch_last)
    y = xp.matmul(W.reshape(groups, out_c // groups, cols.shape[1]), cols)
    y = y.astype(x.dtype, copy=False)
    if b is not None:
        y += b.reshape(groups, out_c // groups, 1)
    if batch_last:
        y = y.reshape((out_c,) + tuple(outs) + (n,))
    else:
        y = y.reshape((out_c, n) + tuple(outs))
    return _from_layout(y, batch_last)


def grad_weight(x, gy, ksize, stride, pad, dilate, groups, w_dtype):
    """Gradient of the filter of a convolution of ``x`` with output grad gy.

    Returns:
        An array of shape ``(c_O, c_I / groups) + ksize`` and dtype
        ``w_dtype``.
    """
    if x.ndim <= 5 and x.dtype == w_dtype:
        gW = _kernels.call((x, gy), _kernels.FLOAT32, lambda k: (
            k.convolution_backward_weights(
                _kernels.plain(x), _kernels.plain(gy),
                gy.shape[1:2] + (x.shape[1] // groups,) + tuple(ksize),
                False,
                *_onednn_geometry(x.shape[2:], ksize, stride, pad,
                                  gy.shape[2:], dilate), groups)[0]))
        if gW is not None:
            return gW
    xp = backend.get_array_module(x)
    out_c = gy.shape[1]
    batch_last = _use_batch_last(gy.shape[2:])
    cols = _columns(x, ksize, stride, pad, gy.shape[2:], dilate, groups,
                    batch_last)
    gy = _to_layout(gy, batch_last).reshape(
        groups, out_c // groups, cols.shape[2])
    gW = xp.matmul(gy, cols.swapaxes(1, 2))
    return gW.reshape((out_c, x.shape[1] // groups) + tuple(ksize)).astype(
        w_dtype, copy=False)


def transposed(x, W, b, stride, pad, outs, dilate, groups):
    """Transposed convolution (deconvolution) of ``x`` with ``W``.

    ``W`` has the shape ``(c_I, c_O / groups) + ksize``, the filter of the
    convolution that this one transposes.

    Returns:
        The output of shape ``(n, c_O) + outs`` and the dtype of ``x``.
    """
    if x.ndim <= 5:
        y = _kernels.call((x, W, b), _kernels.FLOAT32, lambda k: (
            k.convolution_backward_data(
                _kernels.plain(x), _contiguous(W),
                x.shape[:1] + (W.shape[1] * groups,) + tuple(outs),
                *_onednn_geometry(outs, W.shape[2:], stride, pad,
                                  x.shape[2:], dilate), groups)))
        if y is not None:
            if b is not None:
                y += b.reshape((1, -1) + (1,) * len(outs))
            return y
    xp = backend.get_array_module(x)
    n, in_c = x.shape[:2]
    ksize = W.shape[2:]
    out_c = W.shape[1] * groups
    batch_last = _use_batch_last(x.shape[2:])
    xs = _to_layout(x, batch_last).reshape(
        groups, in_c // groups, n * utils.size_of_shape(x.shape[2:]))
    ws = W.reshape(
        groups, in_c // groups, W.shape[1] * utils.size_of_shape(ksize))
    cols = xp.matmul(ws.swapaxes(1, 2), xs).astype(x.dtype, copy=False)
    if batch_last:
        cols = cols.reshape((out_c,) + ksize + x.shape[2:] + (n,))
        y = conv._col2im(cols, stride, pad, outs, dilate, batch_last=True)
    else:
        # (c_O, k..., n, in...) seen as (c_O, n, k..., in...).
        cols = cols.reshape((out_c,) + ksize + (n,) + x.shape[2:])
        cols = xp.moveaxis(cols, len(ksize) + 1, 1)
        y = conv._col2im(cols, stride, pad, outs, dilate).swapaxes(0, 1)
    y = xp.ascontiguousarray(y)
    if b is not None:
        y += b.reshape((1, out_c) + (1,) * len(outs))
    return y
