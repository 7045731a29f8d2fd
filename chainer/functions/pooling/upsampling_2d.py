from chainer import function_node
from chainer.functions.pooling import pooling_2d
from chainer.functions.pooling import pooling_nd
from chainer.functions.pooling import unpooling_nd
from chainer.utils import type_check


class Upsampling2D(pooling_2d.Pooling2D):

    """Upsampling over a set of 2-D planes with max pooling indexes."""

    def __init__(self, indexes, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
        super().__init__(ksize, stride, pad, cover_all)
        self.indexes = indexes
        self.outh, self.outw = (None, None) if outsize is None else outsize

    def check_type_forward(self, in_types):
        unpooling_nd.check_unpooling_type(
            in_types, 2, (self.outh, self.outw), self._ksize, self._stride,
            self._pad, self.cover_all)
        x_type, = in_types
        type_check.expect(x_type.ndim == self.indexes.ndim)
        for axis, length in enumerate(self.indexes.shape):
            type_check.expect(x_type.shape[axis] == length)

    def forward(self, inputs):
        x, = inputs
        out_h, out_w = unpooling_nd.unpooled_sizes(
            x.shape[2:], self._ksize, self._stride, self._pad,
            self.cover_all)
        if self.outh is None:
            self.outh = out_h
        if self.outw is None:
            self.outw = out_w
        self._in_dtype = x.dtype
        y = pooling_nd.scatter(x, self.indexes, self._ksize, self._stride,
                               self._pad, (self.outh, self.outw))
        return y,

    def backward(self, indexes, grad_outputs):
        return Upsampling2DGrad(self).apply(grad_outputs)


class Upsampling2DGrad(function_node.FunctionNode):

    """Gradient of :class:`Upsampling2D`: picks the indexed elements."""

    def __init__(self, upsampling2d):
        self.kh = upsampling2d.kh
        self.kw = upsampling2d.kw
        self.sy = upsampling2d.sy
        self.sx = upsampling2d.sx
        self.ph = upsampling2d.ph
        self.pw = upsampling2d.pw
        self.outh = upsampling2d.outh
        self.outw = upsampling2d.outw
        self.cover_all = upsampling2d.cover_all
        self.indexes = upsampling2d.indexes

    def forward(self, inputs):
        gy, = inputs
        gx = pooling_nd.gather(gy, self.indexes, (self.kh, self.kw),
                               (self.sy, self.sx), (self.ph, self.pw),
                               self.indexes.shape[2:])
        return gx,

    def backward(self, indexes, grad_outputs):
        return Upsampling2D(
            self.indexes, (self.kh, self.kw), (self.sy, self.sx),
            (self.ph, self.pw), (self.outh, self.outw),
            self.cover_all).apply(grad_outputs)


def upsampling_2d(x, indexes, ksize, stride=None, pad=0, outsize=None,
                  cover_all=True):
    """Upsampling with the indexes of a max pooling.

    It puts every input pixel back where
    :func:`~chainer.functions.max_pooling_2d` found it: at the element of
    its window that ``indexes`` points to; the other output pixels are
    zero (where windows overlap, values sent to one pixel are summed).
    The arguments describe the max pooling.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The feature maps,
            ``(n, c, h, w)``.
        indexes (:ref:`ndarray`): Flat indexes within the windows, of the
            shape of ``x``, as returned by
            ``max_pooling_2d(..., return_indices=True)``.
        ksize (int or pair of ints): Window size ``(kh, kw)``.
        stride (None, int or pair of ints): Window step; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Padding ``(ph, pw)`` of the pooling.
        outsize (None or pair of ints): Output size ``(out_h, out_w)``, the
            size of the pooled image; by default the one the pooling maps
            to ``(h, w)``.
        cover_all (bool): Whether the pooling used ``cover_all``.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c, out_h, out_w)``.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
        >>> F.upsampling_2d(y, indexes, 2, outsize=(4, 4)).array
        array([[[[ 0.,  0.,  0.,  0.],
                 [ 0.,  5.,  0.,  7.],
                 [ 0.,  0.,  0.,  0.],
                 [ 0., 13.,  0., 15.]]]], dtype=float32)

    """
    return Upsampling2D(indexes, ksize, stride, pad, outsize,
                        cover_all).apply((x,))[0]
