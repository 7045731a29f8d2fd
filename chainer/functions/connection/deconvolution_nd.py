from chainer.functions.connection import _check
from chainer.functions.connection import _convolution
from chainer.functions.connection import convolution_nd
from chainer.utils import conv
from chainer.utils import type_check


class DeconvolutionND(convolution_nd._ConvolutionNDBase):

    """N-dimensional deconvolution (transposed convolution)."""

    cover_all = None

    def __init__(self, ndim, stride=1, pad=0, outsize=None, dilate=1,
                 groups=1):
        super().__init__(ndim, stride, pad, dilate, groups)
        if outsize is not None:
            assert len(outsize) == ndim
            outsize = tuple(outsize)
        self.outs = outsize

    def check_type_forward(self, in_types):
        x_type, w_type = _check.x_and_w(
            in_types, self.ndim + 2, self.ndim + 2)
        type_check.expect(
            x_type.shape[1] == w_type.shape[0],
            w_type.shape[0] % self.groups == 0,
        )
        if self.outs is not None:
            for i, (out, s, p, d) in enumerate(zip(
                    self.outs, self.stride, self.pad, self.dilate)):
                k = type_check.eval(w_type.shape[i + 2])
                type_check.expect(
                    conv.get_conv_outsize(out, k, s, p, d=d)
                    <= x_type.shape[i + 2],
                    x_type.shape[i + 2]
                    <= conv.get_conv_outsize(out, k, s, p, cover_all=True,
                                             d=d))
        _check.bias(in_types, w_type.shape[1] * self.groups)

    def forward(self, inputs):
        x, W, b = self._retain_inputs(inputs)
        dims = x.shape[2:]
        ksize = W.shape[2:]
        if self.outs is None:
            self.outs = tuple(
                conv.get_deconv_outsize(d, k, s, p, d=di)
                for d, k, s, p, di
                in zip(dims, ksize, self.stride, self.pad, self.dilate))
            if not all(out > 0 for out in self.outs):
                raise AssertionError('Output sizes should be positive.')
        # The convolution that this one transposes needs cover_all when
        # the output size maps back to the input size only with it.
        self.cover_all = dims != _convolution.out_sizes(
            self.outs, ksize, self.stride, self.pad, False, self.dilate)
        y = _convolution.transposed(x, W, b, self.stride, self.pad,
                                    self.outs, self.dilate, self.groups)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            gx = convolution_nd.convolution_nd(
                gy, W, stride=self.stride, pad=self.pad,
                cover_all=self.cover_all, dilate=self.dilate,
                groups=self.groups)
            ret.append(gx)
        if 1 in indexes:
            gW, = convolution_nd.ConvolutionNDGradW(self).apply((gy, x))
            ret.append(gW)
        if 2 in indexes:
            ret.append(self._grad_b(gy))
        return ret


def deconvolution_nd(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """N-dimensional deconvolution, also called transposed convolution.

    The generalization of :func:`~chainer.functions.deconvolution_2d` to any
    number ``N`` of spatial axes: it is the gradient of
    :func:`~chainer.functions.convolution_nd` with respect to its input.
    Without ``outsize`` the output length along axis ``i`` is
    ``s_i * (d_i - 1) + (k_i - 1) * dilate_i + 1 - 2 * p_i``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The inputs, with
            ``c_I`` channels and N spatial axes: ``(n, c_I, d_1, ..., d_N)``.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): Filters of shape
            ``(c_I, c_O / groups, k_1, ..., k_N)``.
        b (None or :class:`~chainer.Variable` or :ref:`ndarray`): Bias of
            shape ``(c_O,)`` (optional).
        stride (int or tuple of ints): Steps between the output windows of
            neighbouring input elements.
        pad (int or tuple of ints): Elements cropped from each side of each
            spatial axis of the output.
        outsize (None or tuple of ints): Output spatial shape; it must map
            back to the input shape under a convolution with the same
            arguments, with or without ``cover_all``.
        dilate (int or tuple of ints): Spacing of the filter taps.
        groups (int): Number of channel groups; it must divide ``c_I``.

    Returns:
        ~chainer.Variable: The result, ``(n, c_O, l_1, ..., l_N)``.

    .. seealso::

        :class:`~chainer.links.DeconvolutionND`, which holds ``W`` and
        ``b``.

    .. admonition:: Example

        >>> x = np.random.uniform(0, 1, (2, 3, 4, 5, 6)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (3, 2, 3, 3, 3)).astype(np.float32)
        >>> F.deconvolution_nd(x, W, stride=2, pad=1).shape
        (2, 2, 7, 9, 11)

    """
    ndim = len(x.shape[2:])
    fnode = DeconvolutionND(ndim, stride, pad, outsize, dilate=dilate,
                            groups=groups)
    return convolution_nd._apply(fnode, x, W, b)


def deconvolution_1d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """One-dimensional deconvolution.

    :func:`deconvolution_nd` for inputs of shape ``(n, c_I, d)``.

    Raises:
        ValueError: If ``x`` does not have one spatial axis.
    """
    convolution_nd._check_spatial_ndim(x, 1)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)


def deconvolution_3d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """Three-dimensional deconvolution.

    :func:`deconvolution_nd` for inputs of shape
    ``(n, c_I, d_1, d_2, d_3)``.

    Raises:
        ValueError: If ``x`` does not have three spatial axes.
    """
    convolution_nd._check_spatial_ndim(x, 3)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)
