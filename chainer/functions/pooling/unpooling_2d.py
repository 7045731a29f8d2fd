from chainer import function_node
from chainer.functions.pooling import pooling_2d
from chainer.functions.pooling import pooling_nd
from chainer.functions.pooling import unpooling_nd


class Unpooling2D(pooling_2d.Pooling2D):

    """Inverse of 2-D pooling: each value fills its window."""

    def __init__(self, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
        super().__init__(ksize, stride, pad, cover_all)
        self.outh, self.outw = (None, None) if outsize is None else outsize

    def check_type_forward(self, in_types):
        unpooling_nd.check_unpooling_type(
            in_types, 2, (self.outh, self.outw), self._ksize, self._stride,
            self._pad, self.cover_all)

    def forward(self, inputs):
        x, = inputs
        out_h, out_w = unpooling_nd.unpooled_sizes(
            x.shape[2:], self._ksize, self._stride, self._pad,
            self.cover_all)
        if self.outh is None:
            self.outh = out_h
        if self.outw is None:
            self.outw = out_w
        y = pooling_nd.spread(x, self._ksize, self._stride, self._pad,
                              (self.outh, self.outw))
        return y,

    def backward(self, indexes, grad_outputs):
        return Unpooling2DGrad(self).apply(grad_outputs)


class Unpooling2DGrad(function_node.FunctionNode):

    """Gradient of :class:`Unpooling2D`: sums each window."""

    def __init__(self, unpooling2d):
        self.kh = unpooling2d.kh
        self.kw = unpooling2d.kw
        self.sy = unpooling2d.sy
        self.sx = unpooling2d.sx
        self.ph = unpooling2d.ph
        self.pw = unpooling2d.pw
        self.outh = unpooling2d.outh
        self.outw = unpooling2d.outw
        self.cover_all = unpooling2d.cover_all
        self._in_dims = unpooling2d.inputs[0].shape[2:]

    def forward(self, inputs):
        gy, = inputs
        gx = pooling_nd.window_sum(gy, (self.kh, self.kw), (self.sy, self.sx),
                                   (self.ph, self.pw), self._in_dims)
        return gx,

    def backward(self, indexes, grad_outputs):
        return Unpooling2D(
            (self.kh, self.kw), (self.sy, self.sx), (self.ph, self.pw),
            (self.outh, self.outw), self.cover_all).apply(grad_outputs)


def unpooling_2d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Two-dimensional spatial unpooling, the inverse of pooling.

    Every input pixel is copied to each pixel of its ``ksize`` window in
    the output; where windows overlap the copies are summed. With
    ``stride == ksize`` and no padding it enlarges the image by
    repetition.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The feature maps,
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size ``(kh, kw)``.
        stride (None, int or pair of ints): Window step; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Rows and columns ``(ph, pw)`` cropped
            from each side of the output.
        outsize (None or pair of ints): Output size ``(out_h, out_w)``; by
            default the one a pooling with the same arguments maps to
            ``(h, w)``.
        cover_all (bool): Whether the pooling that this one inverts uses
            ``cover_all``; it makes the default output smaller.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c, out_h, out_w)``.

    .. admonition:: Example

        >>> x = np.array([[[1, 2], [3, 4]]], np.float32)[None]
        >>> F.unpooling_2d(x, 2, cover_all=False).shape
        (1, 1, 4, 4)
        >>> F.unpooling_2d(x, 2).shape
        (1, 1, 3, 3)

    """
    return Unpooling2D(ksize, stride, pad, outsize, cover_all).apply((x,))[0]
