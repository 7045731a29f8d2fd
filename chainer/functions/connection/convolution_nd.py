import chainer
from chainer import function_node
from chainer.functions.connection import _check
from chainer.functions.connection import _convolution
from chainer.utils import conv_nd
from chainer.utils import type_check


class _ConvolutionNDBase(function_node.FunctionNode):

    # What N-dimensional convolution and deconvolution share: the geometry
    # arguments, the inputs kept for backward and the gradient of b.

    def __init__(self, ndim, stride, pad, dilate, groups):
        self.ndim = ndim
        self.stride = conv_nd.as_tuple(stride, ndim)
        self.pad = conv_nd.as_tuple(pad, ndim)
        self.dilate = conv_nd.as_tuple(dilate, ndim)
        self.groups = groups

    def _retain_inputs(self, inputs):
        # Keeps x and W for backward; returns x, W and b (or None).
        self.retain_inputs((0, 1))
        return inputs[0], inputs[1], inputs[2] if len(inputs) == 3 else None

    def _grad_b(self, gy):
        gb = chainer.functions.sum(gy, axis=(0,) + tuple(range(2, gy.ndim)))
        if gb.dtype != self.inputs[2].dtype:
            gb = chainer.functions.cast(gb, self.inputs[2].dtype)
        return gb


def _apply(fnode, x, W, b):
    args = (x, W) if b is None else (x, W, b)
    y, = fnode.apply(args)
    return y


class ConvolutionND(_ConvolutionNDBase):

    """N-dimensional convolution, ``y = conv(x, W) + b``."""

    def __init__(self, ndim, stride=1, pad=0, cover_all=False, dilate=1,
                 groups=1):
        super().__init__(ndim, stride, pad, dilate, groups)
        self.cover_all = cover_all

    def check_type_forward(self, in_types):
        x_type, w_type = _check.x_and_w(
            in_types, self.ndim + 2, self.ndim + 2)
        type_check.expect(
            x_type.shape[1] == w_type.shape[1] * self.groups,
            w_type.shape[0] % self.groups == 0,
        )
        _check.bias(in_types, w_type.shape[0])

    def forward(self, inputs):
        x, W, b = self._retain_inputs(inputs)
        outs = _convolution.out_sizes(
            x.shape[2:], W.shape[2:], self.stride, self.pad, self.cover_all,
            self.dilate)
        if not all(out > 0 for out in outs):
            raise AssertionError('Output sizes should be positive.')
        y = _convolution.forward(x, W, b, self.stride, self.pad, outs,
                                 self.dilate, self.groups)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            gx = chainer.functions.deconvolution_nd(
                gy, W, stride=self.stride, pad=self.pad,
                outsize=x.shape[2:], dilate=self.dilate, groups=self.groups)
            ret.append(gx)
        if 1 in indexes:
            gW, = ConvolutionNDGradW(self).apply((x, gy))
            ret.append(gW)
        if 2 in indexes:
            ret.append(self._grad_b(gy))
        return ret


class ConvolutionNDGradW(function_node.FunctionNode):

    """Gradient of an N-D convolution with respect to its filter."""

    def __init__(self, convnd):
        W_node = convnd.inputs[1]
        self.ndim = convnd.ndim
        self.ksize = W_node.shape[2:]
        self.stride = convnd.stride
        self.pad = convnd.pad
        self.cover_all = convnd.cover_all
        self.dilate = convnd.dilate
        self.groups = convnd.groups
        self.W_dtype = W_node.dtype

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gW = _convolution.grad_weight(
            x, gy, self.ksize, self.stride, self.pad, self.dilate,
            self.groups, self.W_dtype)
        return gW,

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            gx = chainer.functions.deconvolution_nd(
                gy, ggW, stride=self.stride, pad=self.pad,
                outsize=x.shape[2:], dilate=self.dilate, groups=self.groups)
            ret.append(gx)
        if 1 in indexes:
            ggy = convolution_nd(
                x, ggW, stride=self.stride, pad=self.pad,
                cover_all=self.cover_all, dilate=self.dilate,
                groups=self.groups)
            ret.append(ggy)
        return ret


def convolution_nd(x, W, b=None, stride=1, pad=0, cover_all=False,
                   dilate=1, groups=1):
    """N-dimensional convolution.

    The generalization of :func:`~chainer.functions.convolution_2d` to any
    number ``N`` of spatial axes: each filter ``W[o]`` slides over the
    padded input in steps of ``stride``, and the output channel ``o`` takes
    the inner product of the filter with every window it covers, plus
    ``b[o]``. Along axis ``i`` the output length is
    ``(d_i + 2 * p_i - (k_i - 1) * dilate_i - 1) // s_i + 1``, one more
    with ``cover_all`` when the last window leaves input elements
    uncovered.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The inputs, with
            ``c_I`` channels and N spatial axes: ``(n, c_I, d_1, ..., d_N)``.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): Filters of shape
            ``(c_O, c_I / groups, k_1, ..., k_N)``.
        b (None or :class:`~chainer.Variable` or :ref:`ndarray`): Bias of
            shape ``(c_O,)`` (optional).
        stride (int or tuple of ints): Steps of the filter; ``s`` means
            ``(s, ..., s)``.
        pad (int or tuple of ints): Zeros added on each side of each
            spatial axis.
        cover_all (bool): If ``True``, every input element is covered by
            some window.
        dilate (int or tuple of ints): Spacing of the filter taps.
        groups (int): Number of channel groups; it must divide ``c_I`` and
            ``c_O``.

    Returns:
        ~chainer.Variable: The result, ``(n, c_O, l_1, ..., l_N)``.

    .. seealso::

        :func:`~chainer.functions.convolution_2d`, and
        :class:`~chainer.links.ConvolutionND`, which holds ``W`` and ``b``.

    .. admonition:: Example

        >>> x = np.random.uniform(0, 1, (2, 3, 8, 9, 10)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (4, 3, 3, 3, 3)).astype(np.float32)
        >>> F.convolution_nd(x, W, stride=2, pad=1).shape
        (2, 4, 4, 5, 5)

    """
    ndim = len(x.shape[2:])
    fnode = ConvolutionND(ndim, stride, pad, cover_all, dilate=dilate,
                          groups=groups)
    return _apply(fnode, x, W, b)


def _check_spatial_ndim(x, ndim):
    if len(x.shape[2:]) != ndim:
        raise ValueError(
            'The number of dimensions under channel dimension of the input '
            '\'x\' should be {}. But the actual ndim was {}.'.format(
                ndim, len(x.shape[2:])))


def convolution_1d(x, W, b=None, stride=1, pad=0, cover_all=False,
                   dilate=1, groups=1):
    """One-dimensional convolution.

    :func:`convolution_nd` for inputs of shape ``(n, c_I, d)``.

    Raises:
        ValueError: If ``x`` does not have one spatial axis.
    """
    _check_spatial_ndim(x, 1)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)


def convolution_3d(x, W, b=None, stride=1, pad=0, cover_all=False,
                   dilate=1, groups=1):
    """Three-dimensional convolution.

    :func:`convolution_nd` for inputs of shape ``(n, c_I, d_1, d_2, d_3)``.

    Raises:
        ValueError: If ``x`` does not have three spatial axes.
    """
    _check_spatial_ndim(x, 3)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)
