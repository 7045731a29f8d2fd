import chainer
from chainer import function_node
from chainer.functions.connection import _check
from chainer.functions.connection import _convolution
from chainer.functions.connection import convolution_2d
from chainer.utils import argument
from chainer.utils import conv
from chainer.utils import type_check


_pair = convolution_2d._pair


class Deconvolution2DFunction(function_node.FunctionNode):

    """Two-dimensional deconvolution (transposed convolution)."""

    cover_all = None

    def __init__(self, stride=1, pad=0, outsize=None, **kwargs):
        dilate, groups = argument.parse_kwargs(
            kwargs, ('dilate', 1), ('groups', 1),
            deterministic=convolution_2d._deterministic_message,
            requires_x_grad=convolution_2d._requires_x_grad_message)
        self.sy, self.sx = _pair(stride)
        self.ph, self.pw = _pair(pad)
        self.outh, self.outw = (None, None) if outsize is None else outsize
        self.dy, self.dx = _pair(dilate)
        self.groups = groups
        if self.dy < 1 or self.dx < 1:
            raise ValueError('Dilate should be positive, but {} is '
                             'supplied.'.format(dilate))

    def check_type_forward(self, in_types):
        x_type, w_type = _check.x_and_w(in_types, 4, 4)
        type_check.expect(
            x_type.shape[1] == w_type.shape[0],
            w_type.shape[0] % self.groups == 0,
        )
        for out, axis, s, p, d in ((self.outh, 2, self.sy, self.ph, self.dy),
                                   (self.outw, 3, self.sx, self.pw, self.dx)):
            if out is None:
                continue
            k = type_check.eval(w_type.shape[axis])
            type_check.expect(
                conv.get_conv_outsize(out, k, s, p, d=d)
                <= x_type.shape[axis],
                x_type.shape[axis]
                <= conv.get_conv_outsize(out, k, s, p, cover_all=True, d=d))
        _check.bias(in_types, w_type.shape[1] * self.groups, x_type)

    def _set_out_size(self, x_shape, w_shape):
        kh, kw = w_shape[2:]
        in_h, in_w = x_shape[2:]
        if self.outh is None:
            self.outh = conv.get_deconv_outsize(
                in_h, kh, self.sy, self.ph, d=self.dy)
            if self.outh <= 0:
                raise RuntimeError('Height in the output must be positive.')
        if self.outw is None:
            self.outw = conv.get_deconv_outsize(
                in_w, kw, self.sx, self.pw, d=self.dx)
            if self.outw <= 0:
                raise RuntimeError('Width in the output must be positive.')
        # The convolution that this one transposes needs cover_all when
        # the output size maps back to the input size only with it.
        self.cover_all = (
            in_h != conv.get_conv_outsize(self.outh, kh, self.sy, self.ph,
                                          d=self.dy)
            or in_w != conv.get_conv_outsize(self.outw, kw, self.sx,
                                             self.pw, d=self.dx))

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        self._set_out_size(x.shape, W.shape)
        y = _convolution.transposed(
            x, W, b, (self.sy, self.sx), (self.ph, self.pw),
            (self.outh, self.outw), (self.dy, self.dx), self.groups)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            gx = convolution_2d.convolution_2d(
                gy, W, stride=(self.sy, self.sx), pad=(self.ph, self.pw),
                cover_all=self.cover_all, dilate=(self.dy, self.dx),
                groups=self.groups)
            ret.append(gx)
        if 1 in indexes:
            gW, = convolution_2d.Convolution2DGradW(
                self, W.shape, W.dtype).apply((gy, x))
            ret.append(gW)
        if 2 in indexes:
            ret.append(chainer.functions.sum(gy, axis=(0, 2, 3)))
        return ret


def deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, **kwargs):
    """deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, *, \
dilate=1, groups=1)

    Two-dimensional deconvolution, also called transposed convolution.

    It is the gradient of :func:`convolution_2d` with respect to its input:
    every input pixel scatters its values, weighted by the filter, over a
    window of the output, windows ``stride`` apart; overlapping
    contributions are summed and ``pad`` rows and columns are cropped from
    each side. Without ``outsize`` the output height is
    ``sy * (h - 1) + (kh - 1) * dy + 1 - 2 * ph`` (likewise the width).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The images,
            ``(n, c_I, h, w)``.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): Filters of shape
            ``(c_I, c_O / groups, kh, kw)``.
        b (None or :class:`~chainer.Variable` or :ref:`ndarray`): Bias of
            shape ``(c_O,)`` (optional).
        stride (int or pair of ints): Step ``(sy, sx)`` between the output
            windows of neighbouring input pixels.
        pad (int or pair of ints): Rows and columns ``(ph, pw)`` cropped
            from each side of the output.
        outsize (None or pair of ints): Output size ``(out_h, out_w)``.
            It must be a size that a convolution with the same arguments
            maps back to ``(h, w)``, with or without ``cover_all``; it
            resolves the ambiguity of strided convolutions.
        dilate (int or pair of ints): Spacing ``(dy, dx)`` of the filter
            taps.
        groups (int): Number of channel groups; it must divide ``c_I``.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c_O, out_h, out_w)``.

    .. seealso::

        :class:`~chainer.links.Deconvolution2D`, which holds ``W`` and
        ``b``.

    .. admonition:: Example

        >>> x = np.random.uniform(0, 1, (2, 3, 4, 5)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (3, 6, 3, 3)).astype(np.float32)
        >>> F.deconvolution_2d(x, W, stride=2, pad=1).shape
        (2, 6, 7, 9)
        >>> F.deconvolution_2d(x, W, stride=2, pad=1, outsize=(8, 10)).shape
        (2, 6, 8, 10)

    """
    dilate, groups = argument.parse_kwargs(
        kwargs, ('dilate', 1), ('groups', 1),
        deterministic=convolution_2d._deterministic_message)
    fnode = Deconvolution2DFunction(stride, pad, outsize, dilate=dilate,
                                    groups=groups)
    args = (x, W) if b is None else (x, W, b)
    y, = fnode.apply(args)
    return y
