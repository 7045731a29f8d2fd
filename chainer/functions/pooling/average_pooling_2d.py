from chainer import _kernels
from chainer import function_node
from chainer.functions.pooling import average_pooling_nd
from chainer.functions.pooling import pooling_2d
from chainer.functions.pooling import pooling_nd


class AveragePooling2D(pooling_2d.Pooling2D):

    """Mean over the windows of 2-D feature maps."""

    def forward(self, inputs):
        x, = inputs
        outs = pooling_nd.out_sizes(x.shape[2:], self._ksize, self._stride,
                                    self._pad, False)
        self._in_shape = x.shape
        self._in_dtype = x.dtype
        self._in_channels_last = _kernels.strictly_channels_last(x)
        y = average_pooling_nd.average_windows(
            x, self._ksize, self._stride, self._pad, outs, self.kh * self.kw)
        return y,

    def backward(self, indexes, grad_outputs):
        return AveragePooling2DGrad(self).apply(grad_outputs)


class AveragePooling2DGrad(function_node.FunctionNode):

    """Gradient of :class:`AveragePooling2D`."""

    def __init__(self, apool2d):
        self.kh = apool2d.kh
        self.kw = apool2d.kw
        self.sy = apool2d.sy
        self.sx = apool2d.sx
        self.ph = apool2d.ph
        self.pw = apool2d.pw
        self._in_shape = apool2d._in_shape
        self._in_dtype = apool2d._in_dtype
        self._in_channels_last = apool2d._in_channels_last

    def forward(self, inputs):
        gy, = inputs
        gx = average_pooling_nd.spread_windows(
            gy, (self.kh, self.kw), (self.sy, self.sx), (self.ph, self.pw),
            self._in_shape, self.kh * self.kw, self._in_channels_last)
        return gx,

    def backward(self, indexes, grad_outputs):
        return AveragePooling2D(
            (self.kh, self.kw), (self.sy, self.sx), (self.ph, self.pw),
            False).apply(grad_outputs)


def average_pooling_2d(x, ksize, stride=None, pad=0):
    """Two-dimensional spatial average pooling.

    Each output pixel is the mean of a ``ksize`` window of the input;
    windows start at ``-pad`` and are ``stride`` apart. Padded pixels count
    as zeros: every window is divided by ``kh * kw``. Windows never cover
    the input only partly at the end (there is no ``cover_all`` mode).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The feature maps,
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size ``(kh, kw)``.
        stride (None, int or pair of ints): Window step; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Padding ``(ph, pw)``.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c, out_h, out_w)``.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> F.average_pooling_2d(x, 2).array
        array([[[[ 2.5,  4.5],
                 [10.5, 12.5]]]], dtype=float32)

    """
    return AveragePooling2D(ksize, stride, pad, False).apply((x,))[0]
