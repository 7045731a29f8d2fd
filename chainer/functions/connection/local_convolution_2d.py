import chainer
from chainer import function_node
from chainer.functions.connection import _check
from chainer.functions.connection import convolution_2d
from chainer.utils import conv
from chainer.utils import type_check


# The filter of a locally connected layer differs at every output position.
# The windows of x are laid out position-major, (out_h * out_w, n, c * k),
# and W as (out_h * out_w, c * k, c_O), so that the whole layer is one
# batched matrix product over the positions.

def _windows(x, ksize, stride, outs):
    # (out_h * out_w, n, c * kh * kw), a new array.
    n = x.shape[0]
    patches = conv._patches(x, ksize, stride, (0, 0), outs, (1, 1))
    return patches.transpose(4, 5, 0, 1, 2, 3).reshape(
        outs[0] * outs[1], n, x.shape[1] * ksize[0] * ksize[1])


def _filters(W):
    # (out_c, out_h, out_w, c, kh, kw) -> (out_h * out_w, c * kh * kw, out_c)
    out_c, out_h, out_w = W.shape[:3]
    return W.reshape(out_c, out_h * out_w, -1).transpose(1, 2, 0)


def _grad_output(gy):
    # (n, out_c, out_h, out_w) -> (out_h * out_w, n, out_c)
    n, out_c = gy.shape[:2]
    return gy.reshape(n, out_c, gy.shape[2] * gy.shape[3]).transpose(2, 0, 1)


def _local_conv(x, W, stride):
    out_c, out_h, out_w = W.shape[:3]
    cols = _windows(x, W.shape[4:], stride, (out_h, out_w))
    y = (cols @ _filters(W)).astype(x.dtype, copy=False)
    return y.transpose(1, 2, 0).reshape(len(x), out_c, out_h, out_w)


def _local_conv_grad_data(W, gy, stride, x_shape):
    out_c, out_h, out_w, c, kh, kw = W.shape
    n = gy.shape[0]
    gcols = _grad_output(gy) @ _filters(W).transpose(0, 2, 1)
    gcols = gcols.reshape(out_h, out_w, n, c, kh, kw).transpose(
        2, 3, 4, 5, 0, 1)
    return conv._col2im(gcols.astype(gy.dtype, copy=False), stride, (0, 0),
                        x_shape[2:], (1, 1))


def _local_conv_grad_weight(x, gy, stride, w_shape, w_dtype):
    out_c, out_h, out_w = w_shape[:3]
    cols = _windows(x, w_shape[4:], stride, (out_h, out_w))
    gW = _grad_output(gy).transpose(0, 2, 1) @ cols
    return gW.transpose(1, 0, 2).reshape(w_shape).astype(w_dtype, copy=False)


class LocalConvolution2DFunction(function_node.FunctionNode):

    """Locally connected 2-D layer: a convolution without weight sharing."""

    def __init__(self, stride=1):
        self.sy, self.sx = convolution_2d._pair(stride)

    def check_type_forward(self, in_types):
        x_type, w_type = _check.x_and_w(in_types, 4, 6)
        type_check.expect(
            x_type.shape[1] == w_type.shape[3],
            (w_type.shape[1] - 1) * self.sy + w_type.shape[4]
            <= x_type.shape[2],
            (w_type.shape[2] - 1) * self.sx + w_type.shape[5]
            <= x_type.shape[3],
        )
        if type_check.eval(in_types.size()) == 3:
            b_type = in_types[2]
            type_check._argname((b_type,), ('b',))
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 3,
            )
            type_check.expect(
                b_type.shape[0] == w_type.shape[0],
                b_type.shape[1] == w_type.shape[1],
                b_type.shape[2] == w_type.shape[2],
            )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        y = _local_conv(x, W, (self.sy, self.sx))
        if len(inputs) == 3:
            y += inputs[2]
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            gx, = LocalConvolution2DGradData(
                (self.sy, self.sx), x.shape, x.dtype).apply((W, gy))
            ret.append(gx)
        if 1 in indexes:
            gW, = LocalConvolution2DGradW(
                (self.sy, self.sx), W.shape, W.dtype).apply((x, gy))
            ret.append(gW)
        if 2 in indexes:
            ret.append(chainer.functions.sum(gy, axis=0))
        return ret


class LocalConvolution2DGradData(function_node.FunctionNode):

    """Gradient of :class:`LocalConvolution2DFunction` with respect to x."""

    def __init__(self, stride, x_shape, x_dtype):
        self.stride = stride
        self.x_shape = x_shape
        self.x_dtype = x_dtype

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        W, gy = inputs
        gx = _local_conv_grad_data(W, gy, self.stride, self.x_shape)
        return gx.astype(self.x_dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        W, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            gW, = LocalConvolution2DGradW(
                self.stride, W.shape, W.dtype).apply((ggx, gy))
            ret.append(gW)
        if 1 in indexes:
            ret.append(local_convolution_2d(ggx, W, stride=self.stride))
        return ret


class LocalConvolution2DGradW(function_node.FunctionNode):

    """Gradient of :class:`LocalConvolution2DFunction` with respect to W."""

    def __init__(self, stride, w_shape, w_dtype):
        self.stride = stride
        self.w_shape = w_shape
        self.w_dtype = w_dtype

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return _local_conv_grad_weight(x, gy, self.stride, self.w_shape,
                                       self.w_dtype),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            gx, = LocalConvolution2DGradData(
                self.stride, x.shape, x.dtype).apply((ggW, gy))
            ret.append(gx)
        if 1 in indexes:
            ret.append(local_convolution_2d(x, ggW, stride=self.stride))
        return ret


def local_convolution_2d(x, W, b=None, stride=1):
    """Two-dimensional locally connected layer.

    Like :func:`~chainer.functions.convolution_2d` without padding, but the
    filter is not shared: output position ``(i, j)`` has its own filters
    ``W[:, i, j]``, and its own bias ``b[:, i, j]``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The images,
            ``(n, c_I, h, w)``.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): Filters of shape
            ``(c_O, out_h, out_w, c_I, kh, kw)``; the windows at
            ``(out_h, out_w)`` positions ``stride`` apart must fit in the
            input.
        b (None or :class:`~chainer.Variable` or :ref:`ndarray`): Bias of
            shape ``(c_O, out_h, out_w)`` (optional).
        stride (int or pair of ints): Step ``(sy, sx)`` between windows.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c_O, out_h, out_w)``.

    .. seealso::

        :class:`~chainer.links.LocalConvolution2D`, which holds ``W`` and
        ``b``.

    .. admonition:: Example

        >>> x = np.random.uniform(0, 1, (2, 3, 7, 7)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (2, 5, 5, 3, 3, 3)).astype(
        ...     np.float32)
        >>> F.local_convolution_2d(x, W).shape
        (2, 2, 5, 5)

    """
    func = LocalConvolution2DFunction(stride)
    args = (x, W) if b is None else (x, W, b)
    y, = func.apply(args)
    return y
