from chainer import function_node
from chainer.functions.pooling import pooling_nd
from chainer.utils import conv
from chainer.utils import type_check


def check_unpooling_type(in_types, ndim, outs, ksize, stride, pad,
                         cover_all):
    """Type check of an unpooling of a given output size."""
    type_check._argname(in_types, ('x',))
    x_type, = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        x_type.ndim == 2 + ndim,
    )
    if outs is None:
        return
    for i, (out, k, s, p) in enumerate(zip(outs, ksize, stride, pad)):
        if out is not None:
            type_check.expect(x_type.shape[2 + i] == conv.get_conv_outsize(
                out, k, s, p, cover_all=cover_all))


def unpooled_sizes(dims, ksize, stride, pad, cover_all):
    """Default output shape of an unpooling."""
    return tuple(conv.get_deconv_outsize(d, k, s, p, cover_all=cover_all)
                 for d, k, s, p in zip(dims, ksize, stride, pad))


class UnpoolingND(pooling_nd._PoolingND):

    """Inverse of pooling for N-dimensional feature maps: each value fills
    its window."""

    def __init__(self, ndim, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
        super().__init__(ndim, ksize, stride, pad, cover_all)
        self.outs = None if outsize is None else tuple(outsize)

    def check_type_forward(self, in_types):
        check_unpooling_type(in_types, self.ndim, self.outs, self.ksize,
                             self.stride, self.pad, self.cover_all)

    def forward(self, inputs):
        x, = inputs
        if self.outs is None:
            self.outs = unpooled_sizes(x.shape[2:], self.ksize, self.stride,
                                       self.pad, self.cover_all)
        y = pooling_nd.spread(x, self.ksize, self.stride, self.pad,
                              self.outs)
        return y,

    def backward(self, indexes, grad_outputs):
        return UnpoolingNDGrad(self).apply(grad_outputs)


class UnpoolingNDGrad(function_node.FunctionNode):

    """Gradient of :class:`UnpoolingND`: sums each window."""

    def __init__(self, unpoolingnd):
        self.ndim = unpoolingnd.ndim
        self.ksize = unpoolingnd.ksize
        self.stride = unpoolingnd.stride
        self.pad = unpoolingnd.pad
        self.outs = unpoolingnd.outs
        self.cover_all = unpoolingnd.cover_all
        self._in_dims = unpoolingnd.inputs[0].shape[2:]

    def forward(self, inputs):
        gy, = inputs
        gx = pooling_nd.window_sum(gy, self.ksize, self.stride, self.pad,
                                   self._in_dims)
        return gx,

    def backward(self, indexes, grad_outputs):
        return UnpoolingND(
            self.ndim, self.ksize, self.stride, self.pad, self.outs,
            self.cover_all).apply(grad_outputs)


def unpooling_nd(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """N-dimensional spatial unpooling, the inverse of pooling.

    Every input element is copied to each element of its window in the
    output, as in :func:`~chainer.functions.deconvolution_nd` with a filter
    of ones and one channel at a time; where windows overlap the copies
    are summed.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
            ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Window size; ``k`` means
            ``(k, ..., k)``.
        stride (None, int or tuple of ints): Window step; ``None`` means
            ``ksize``.
        pad (int or tuple of ints): Elements cropped from each side of each
            spatial axis of the output.
        outsize (None or tuple of ints): Output spatial shape; by default
            the one a pooling with the same arguments maps to the input
            shape.
        cover_all (bool): Whether the pooling that this one inverts uses
            ``cover_all``; it makes the default output smaller.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c, l_1, ..., l_N)``.

    .. admonition:: Example

        >>> x = np.array([[[1, 2], [3, 4]]], np.float32)[None]
        >>> F.unpooling_nd(x, 2, cover_all=False).array
        array([[[[1., 1., 2., 2.],
                 [1., 1., 2., 2.],
                 [3., 3., 4., 4.],
                 [3., 3., 4., 4.]]]], dtype=float32)

    """
    ndim = len(x.shape[2:])
    return UnpoolingND(
        ndim, ksize, stride, pad, outsize, cover_all).apply((x,))[0]


def unpooling_1d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """One-dimensional spatial unpooling.

    :func:`unpooling_nd` for inputs of shape ``(n, c, d)``.

    Raises:
        ValueError: If ``x`` does not have one spatial axis.
    """
    pooling_nd.check_spatial_ndim(x, 1)
    return unpooling_nd(x, ksize, stride, pad, outsize, cover_all)


def unpooling_3d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Three-dimensional spatial unpooling.

    :func:`unpooling_nd` for inputs of shape ``(n, c, d_1, d_2, d_3)``.

    Raises:
        ValueError: If ``x`` does not have three spatial axes.
    """
    pooling_nd.check_spatial_ndim(x, 3)
    return unpooling_nd(x, ksize, stride, pad, outsize, cover_all)
