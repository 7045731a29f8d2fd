import chainer
from chainer.backends import cuda
from chainer import function_node
from chainer.functions.connection import _check
from chainer.functions.connection import _convolution
from chainer.utils import argument
from chainer.utils import type_check


_deterministic_message = (
    'deterministic argument is not supported anymore. '
    'Use chainer.using_config(\'cudnn_deterministic\', value) context '
    'where value is either `True` or `False`.')
_requires_x_grad_message = (
    'requires_x_grad argument is not supported anymore. Just remove the '
    'argument. Note that whether to compute the gradient w.r.t. x is '
    'automatically decided during backpropagation.')


def _pair(x):
    if hasattr(x, '__getitem__'):
        return x
    return x, x


def _check_groups(x_type, w_type, groups):
    type_check.expect(
        x_type.shape[1] == w_type.shape[1] * groups,
        w_type.shape[0] % groups == 0,
    )


class Convolution2DFunction(function_node.FunctionNode):

    """Two-dimensional convolution, ``y = conv(x, W) + b``."""

    def __init__(self, stride=1, pad=0, cover_all=False, **kwargs):
        dilate, groups, cudnn_fast = argument.parse_kwargs(
            kwargs, ('dilate', 1), ('groups', 1), ('cudnn_fast', False),
            deterministic=_deterministic_message,
            requires_x_grad=_requires_x_grad_message)
        self.sy, self.sx = _pair(stride)
        self.ph, self.pw = _pair(pad)
        self.cover_all = cover_all
        self.dy, self.dx = _pair(dilate)
        self.groups = groups
        self.cudnn_fast = cudnn_fast
        if self.dy < 1 or self.dx < 1:
            raise ValueError('Dilate should be positive, but {} is '
                             'supplied.'.format(dilate))

    def check_type_forward(self, in_types):
        x_type, w_type = _check.x_and_w(in_types, 4, 4)
        _check_groups(x_type, w_type, self.groups)
        _check.bias(in_types, w_type.shape[0], x_type)

    def _out_size(self, x_shape, w_shape):
        out_h, out_w = _convolution.out_sizes(
            x_shape[2:], w_shape[2:], (self.sy, self.sx), (self.ph, self.pw),
            self.cover_all, (self.dy, self.dx))
        if out_h <= 0:
            raise AssertionError('Height in the output should be positive.')
        if out_w <= 0:
            raise AssertionError('Width in the output should be positive.')
        return out_h, out_w

    def forward(self, inputs):
        if self.cudnn_fast:
            if isinstance(inputs[0], cuda.ndarray):
                raise RuntimeError('\'cudnn_fast\' requires cuDNN to work')
            raise RuntimeError(
                '\'cudnn_fast\' can\'t be used in the CPU backend')
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        outs = self._out_size(x.shape, W.shape)
        y = _convolution.forward(
            x, W, b, (self.sy, self.sx), (self.ph, self.pw), outs,
            (self.dy, self.dx), self.groups)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            gx = chainer.functions.deconvolution_2d(
                gy, W, stride=(self.sy, self.sx), pad=(self.ph, self.pw),
                outsize=x.shape[2:], dilate=(self.dy, self.dx),
                groups=self.groups)
            ret.append(gx)
        if 1 in indexes:
            gW, = Convolution2DGradW(self, W.shape, W.dtype).apply((x, gy))
            ret.append(gW)
        if 2 in indexes:
            ret.append(chainer.functions.sum(gy, axis=(0, 2, 3)))
        return ret


class Convolution2DGradW(function_node.FunctionNode):

    """Gradient of a 2-D convolution with respect to its filter."""

    def __init__(self, conv2d, w_shape, w_dtype, w_layout=None):
        self.kh, self.kw = w_shape[2:]
        self.sy = conv2d.sy
        self.sx = conv2d.sx
        self.ph = conv2d.ph
        self.pw = conv2d.pw
        self.dy = conv2d.dy
        self.dx = conv2d.dx
        self.cover_all = conv2d.cover_all
        self.W_shape = w_shape
        self.W_dtype = w_dtype
        self.groups = conv2d.groups

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gW = _convolution.grad_weight(
            x, gy, (self.kh, self.kw), (self.sy, self.sx),
            (self.ph, self.pw), (self.dy, self.dx), self.groups,
            self.W_dtype)
        return gW,

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            gx = chainer.functions.deconvolution_2d(
                gy, ggW, stride=(self.sy, self.sx), pad=(self.ph, self.pw),
                outsize=x.shape[2:], dilate=(self.dy, self.dx),
                groups=self.groups)
            ret.append(gx)
        if 1 in indexes:
            ggy = convolution_2d(
                x, ggW, stride=(self.sy, self.sx), pad=(self.ph, self.pw),
                cover_all=self.cover_all, dilate=(self.dy, self.dx),
                groups=self.groups)
            ret.append(ggy)
        return ret


def convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False, **kwargs):
    """convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False, *, \
dilate=1, groups=1)

    Two-dimensional convolution.

    Each filter ``W[o]`` slides over the padded input in steps of
    ``stride``; at every position the output channel ``o`` takes the inner
    product of the filter with the window it covers, plus ``b[o]``. With
    ``dilate = d`` the filter taps are ``d`` elements apart. With
    ``groups = g`` the input and output channels are split into ``g``
    groups and each output group sees only its input group.

    The output height is ``(h + 2 * ph - (kh - 1) * dy - 1) // sy + 1``
    (likewise the width); with ``cover_all`` one more row is added when
    the last window would leave input rows uncovered.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The images,
            ``(n, c_I, h, w)``.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): Filters of shape
            ``(c_O, c_I / groups, kh, kw)``.
        b (None or :class:`~chainer.Variable` or :ref:`ndarray`): Bias of
            shape ``(c_O,)`` (optional).
        stride (int or pair of ints): Step ``(sy, sx)`` of the filter;
            ``s`` means ``(s, s)``.
        pad (int or pair of ints): Zeros ``(ph, pw)`` added on each side
            of the spatial axes.
        cover_all (bool): If ``True``, every input element is covered by
            some window, which may add one output row or column.
        dilate (int or pair of ints): Spacing ``(dy, dx)`` of the filter
            taps.
        groups (int): Number of channel groups; it must divide ``c_I`` and
            ``c_O``.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c_O, out_h, out_w)``.

    .. seealso::

        :class:`~chainer.links.Convolution2D`, which holds ``W`` and ``b``.

    .. admonition:: Example

        >>> x = np.random.uniform(0, 1, (2, 3, 10, 12)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (4, 3, 3, 3)).astype(np.float32)
        >>> F.convolution_2d(x, W, stride=2, pad=1).shape
        (2, 4, 5, 6)
        >>> F.convolution_2d(x, W, stride=4).shape
        (2, 4, 2, 3)
        >>> F.convolution_2d(x, W, stride=4, cover_all=True).shape
        (2, 4, 3, 4)

    """
    dilate, groups, cudnn_fast = argument.parse_kwargs(
        kwargs, ('dilate', 1), ('groups', 1), ('cudnn_fast', False),
        deterministic=_deterministic_message)
    fnode = Convolution2DFunction(stride, pad, cover_all, dilate=dilate,
                                  groups=groups, cudnn_fast=cudnn_fast)
    args = (x, W) if b is None else (x, W, b)
    y, = fnode.apply(args)
    return y
