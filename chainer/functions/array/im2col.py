from chainer import function_node
from chainer.utils import conv
from chainer.utils import type_check


def _pair(x):
    if hasattr(x, '__getitem__'):
        return x
    return x, x


class Im2Col(function_node.FunctionNode):

    """Extracts the filter windows of images as channels."""

    def __init__(self, ksize, stride, pad, cover_all, dilate):
        self.kh, self.kw = _pair(ksize)
        self.sy, self.sx = _pair(stride)
        self.ph, self.pw = _pair(pad)
        self.dy, self.dx = _pair(dilate)
        self.cover_all = cover_all

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)

    def forward(self, inputs):
        x, = inputs
        col = conv.im2col(
            x, self.kh, self.kw, self.sy, self.sx, self.ph, self.pw,
            cover_all=self.cover_all, dy=self.dy, dx=self.dx)
        n, c, kh, kw, out_h, out_w = col.shape
        return col.reshape(n, c * kh * kw, out_h, out_w),

    def backward(self, indexes, grad_outputs):
        return Im2ColGrad(
            (self.kh, self.kw), (self.sy, self.sx), (self.ph, self.pw),
            self.cover_all, (self.dy, self.dx), self.inputs[0].shape,
        ).apply(grad_outputs)


class Im2ColGrad(function_node.FunctionNode):

    """Gradient of :class:`Im2Col`: sums the windows back into images."""

    def __init__(self, ksize, stride, pad, cover_all, dilate, in_shape):
        self.kh, self.kw = _pair(ksize)
        self.sy, self.sx = _pair(stride)
        self.ph, self.pw = _pair(pad)
        self.dy, self.dx = _pair(dilate)
        self.cover_all = cover_all
        self.in_shape = in_shape

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('gy',))
        gy_type, = in_types
        type_check.expect(gy_type.dtype.kind == 'f', gy_type.ndim == 4)

    def forward(self, inputs):
        gy, = inputs
        _, c, h, w = self.in_shape
        n, _, out_h, out_w = gy.shape
        gy = gy.reshape(n, c, self.kh, self.kw, out_h, out_w)
        gx = conv.col2im(
            gy, self.sy, self.sx, self.ph, self.pw, h, w, self.dy, self.dx)
        return gx,

    def backward(self, indexes, grad_outputs):
        return Im2Col(
            (self.kh, self.kw), (self.sy, self.sx), (self.ph, self.pw),
            self.cover_all, (self.dy, self.dx)).apply(grad_outputs)


def im2col(x, ksize, stride=1, pad=0, cover_all=False, dilate=1):
    """Extracts the filter windows of images as channels.

    For each output position of a convolution with the given window
    geometry, the values under the window become channels: input channel
    ``c`` and window offset ``(i, j)`` give output channel
    ``(c * kh + i) * kw + j``. A convolution is then a matrix product of
    the result with the flattened filter.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Float images of
            shape ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size ``(kh, kw)``; an int
            means ``kh = kw``.
        stride (int or pair of ints): Stride ``(sy, sx)`` of the window.
        pad (int or pair of ints): Zero padding ``(ph, pw)`` added to both
            sides of each spatial axis.
        cover_all (bool): If ``True``, the windows cover the whole input
            even when the stride leaves some pixels over, which may add
            one output row or column.
        dilate (int or pair of ints): Dilation ``(dy, dx)`` of the window.

    Returns:
        ~chainer.Variable: A variable of shape
        ``(n, c * kh * kw, out_h, out_w)``.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> y = F.im2col(x, 2, stride=2)
        >>> y.shape
        (1, 4, 2, 2)
        >>> y.array[0, :, 0, 0]
        array([0., 1., 4., 5.], dtype=float32)

    """
    return Im2Col(ksize, stride, pad, cover_all, dilate).apply((x,))[0]
