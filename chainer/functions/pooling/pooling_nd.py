import numpy

from chainer import backend
from chainer import function_node
from chainer.functions import _numerics
from chainer import utils
from chainer.utils import conv
from chainer.utils import conv_nd
from chainer.utils import type_check


class _PoolingND(function_node.FunctionNode):

    """Common base of the pooling nodes for N-dimensional feature maps."""

    def __init__(self, ndim, ksize, stride=None, pad=0, cover_all=True,
                 return_indices=False):
        if stride is None:
            stride = ksize
        if ndim <= 0:
            raise ValueError(
                'pooling operation requires at least one spatial dimension.')
        self.ndim = ndim
        self.ksize = conv_nd.as_tuple(ksize, ndim)
        self.stride = conv_nd.as_tuple(stride, ndim)
        self.pad = conv_nd.as_tuple(pad, ndim)
        self.cover_all = cover_all
        self.return_indices = return_indices

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2 + self.ndim,
            x_type.size > 0,
        )


def check_spatial_ndim(x, ndim):
    """Raises ValueError unless ``x`` has ``ndim`` spatial axes."""
    if len(x.shape[2:]) != ndim:
        raise ValueError(
            'The number of dimensions under channel dimension of the input '
            '\'x\' should be {}. But the actual ndim was {}.'.format(
                ndim, len(x.shape[2:])))


def out_sizes(dims, ksize, stride, pad, cover_all):
    """Output spatial shape of a pooling; raises if some length is zero."""
    outs = tuple(conv.get_conv_outsize(d, k, s, p, cover_all)
                 for d, k, s, p in zip(dims, ksize, stride, pad))
    if not all(out > 0 for out in outs):
        raise AssertionError('Output sizes should be positive.')
    return outs


# Window helpers shared by the pooling functions. ``outs`` is the spatial
# shape of the pooled array and ``dims`` that of the image; the windows
# start at ``-pad`` and are ``stride`` apart, as in a convolution.

def window_sum(x, ksize, stride, pad, outs, dtype=None):
    """Sum of each window of ``x`` padded with zeros."""
    patches = conv._patches(x, ksize, stride, pad, outs, (1,) * len(ksize))
    return patches.sum(axis=tuple(range(2, 2 + len(ksize))), dtype=dtype)


def spread(g, ksize, stride, pad, dims):
    """Adds each element of ``g`` to every element of its window."""
    ndim = len(ksize)
    lead = (slice(None), slice(None))
    col = backend.get_array_module(g).broadcast_to(
        g[lead + (None,) * ndim], g.shape[:2] + tuple(ksize) + g.shape[2:])
    return conv._col2im(col, stride, pad, dims, (1,) * ndim)


def _window_element_index(indexes, ksize, stride, extent):
    # Flat index, into a C-contiguous (n, c) + extent array, of the element
    # of each window that ``indexes`` (flat indexes in C order of ksize)
    # picks; windows start at 0 and are stride apart.
    xp = backend.get_array_module(indexes)
    n, c = indexes.shape[:2]
    outs = indexes.shape[2:]
    steps = [int(numpy.prod(extent[i + 1:])) for i in range(len(extent))]
    offsets = numpy.zeros((), numpy.intp)
    starts = numpy.zeros((), numpy.intp)
    for k, s, o, step in zip(ksize, stride, outs, steps):
        offsets = numpy.add.outer(offsets, numpy.arange(k) * step)
        starts = numpy.add.outer(starts, numpy.arange(o) * (s * step))
    planes = xp.arange(n * c).reshape((n, c) + (1,) * len(outs))
    return (planes * utils.size_of_shape(extent) + xp.asarray(starts)
            + xp.asarray(offsets.ravel()).take(indexes))


def _extent(dims, ksize, stride, pad, outs):
    return tuple(max(p + d, (o - 1) * s + k)
                 for p, d, o, s, k in zip(pad, dims, outs, stride, ksize))


def scatter(g, indexes, ksize, stride, pad, dims):
    """Adds each element of ``g`` to the window element ``indexes`` picks.

    ``indexes`` holds flat indexes into the windows (C order of ksize).
    """
    xp = backend.get_array_module(g)
    extent = _extent(dims, ksize, stride, pad, g.shape[2:])
    index = _window_element_index(indexes, ksize, stride, extent).ravel()
    shape = g.shape[:2] + extent
    values = g.ravel()
    if all(s >= k for s, k in zip(stride, ksize)):
        # Disjoint windows: every element is picked at most once.
        img = xp.zeros(shape, g.dtype)
        img.ravel()[index] = values
    elif xp is numpy:
        img = numpy.bincount(index, values, utils.size_of_shape(shape))
        img = img.astype(g.dtype, copy=False).reshape(shape)
    else:
        img = xp.zeros(shape, g.dtype)
        _numerics.add_at(img.ravel(), index, values)
    lead = (slice(None), slice(None))
    return img[lead + tuple(slice(p, p + d) for p, d in zip(pad, dims))]


def gather(x, indexes, ksize, stride, pad, outs):
    """Picks from each window of ``x`` the element ``indexes`` points to."""
    xp = backend.get_array_module(x)
    extent = _extent(x.shape[2:], ksize, stride, pad, outs)
    pad_hi = [e - p - d for e, p, d in zip(extent, pad, x.shape[2:])]
    image = xp.ascontiguousarray(conv._padded(x, pad, pad_hi, 0))
    index = _window_element_index(indexes, ksize, stride, extent)
    return image.ravel().take(index)


_first_index_tables = {}


def _first_index_table(nbits):
    # table[code] is the lowest set bit of code (0 for code 0).
    table = _first_index_tables.get(nbits)
    if table is None:
        codes = numpy.arange(1 << nbits)
        table = numpy.zeros(1 << nbits, numpy.intp)
        lowest = codes & -codes
        table[1:] = numpy.log2(lowest[1:]).astype(numpy.intp)
        _first_index_tables[nbits] = table
    return table


def first_max_index(col, y):
    """Index along axis 2 of the first element of ``col`` equal to ``y``.

    ``y`` is ``col.max(axis=2)``. The result is ``col.argmax(axis=2)``
    (but for NaN), computed faster on the CPU for short windows: the
    positions of the maximum are packed into the bits of one integer per
    window, and a table gives the lowest set bit.
    """
    size = col.shape[2]
    if not isinstance(col, numpy.ndarray) or size > 16:
        return col.argmax(axis=2)
    code_dtype = numpy.uint8 if size <= 8 else numpy.uint16
    hits = col == y[:, :, None]
    code = hits[:, :, 0].astype(code_dtype)
    for i in range(1, size):
        code |= hits[:, :, i].astype(code_dtype) << i
    return _first_index_table(8 if size <= 8 else 16).take(code)
