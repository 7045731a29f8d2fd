"""N-dimensional deconvolution (transposed convolution) layers."""

from chainer.functions.connection import deconvolution_nd
from chainer.links.connection import convolution_nd


class DeconvolutionND(convolution_nd._ConvolutionNDLinkBase):
    """N-dimensional deconvolution layer, holding the filters and the bias
    of :func:`~chainer.functions.deconvolution_nd`.

    ``W`` has shape ``(in_channels, out_channels / groups, k_1, ..., k_N)``
    and ``b`` shape ``(out_channels,)``.

    Args:
        ndim (int): Number of spatial axes ``N``.
        in_channels (int or None): Number of input channels; ``None`` for
            lazy initialization. With ``ksize`` omitted, the two channel
            arguments are ``out_channels`` and ``ksize``.
        out_channels (int): Number of output channels.
        ksize (int or tuple of ints): Filter size.
        stride (int or tuple of ints): Step of the filter on the output.
        pad (int or tuple of ints): Padding cropped from the output.
        nobias (bool): If ``True``, there is no bias.
        outsize (tuple of ints): Expected output size; computed when
            omitted.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.
        dilate (int or tuple of ints): Dilation of the filter.
        groups (int): How many groups the channels are split into.

    Attributes:
        W (~chainer.Parameter): Filters.
        b (~chainer.Parameter): Bias, or ``None``.
    """

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, nobias=False, outsize=None, initialW=None,
                 initial_bias=None, dilate=1, groups=1):
        super().__init__(
            ndim, in_channels, out_channels, ksize, stride, pad, nobias,
            initialW, initial_bias, dilate, groups)
        self.outsize = outsize

    def _filter_channels(self, in_channels):
        return in_channels, int(self.out_channels / self.groups)

    def forward(self, x):
        """Applies the deconvolution.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_channels, d_1, ..., d_N)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_channels, out_1,
            ..., out_N)``.
        """
        self._initialize_for(x)
        return deconvolution_nd.deconvolution_nd(
            x, self.W, b=self.b, stride=self.stride, pad=self.pad,
            outsize=self.outsize, dilate=self.dilate, groups=self.groups)


class Deconvolution1D(DeconvolutionND):
    """One-dimensional deconvolution layer: :class:`DeconvolutionND` with
    ``ndim=1``.

    The arguments (``in_channels``, ``out_channels``, ``ksize``,
    ``stride``, ``pad``, ``nobias``, ``outsize``, ``initialW``,
    ``initial_bias``, ``dilate``, ``groups``) are those of
    :class:`DeconvolutionND`.
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 nobias=False, outsize=None, initialW=None, initial_bias=None,
                 dilate=1, groups=1):
        super().__init__(
            1, in_channels, out_channels, ksize, stride, pad, nobias,
            outsize, initialW, initial_bias, dilate, groups)


class Deconvolution3D(DeconvolutionND):
    """Three-dimensional deconvolution layer: :class:`DeconvolutionND`
    with ``ndim=3``.

    The arguments (``in_channels``, ``out_channels``, ``ksize``,
    ``stride``, ``pad``, ``nobias``, ``outsize``, ``initialW``,
    ``initial_bias``, ``dilate``, ``groups``) are those of
    :class:`DeconvolutionND`.
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 nobias=False, outsize=None, initialW=None, initial_bias=None,
                 dilate=1, groups=1):
        super().__init__(
            3, in_channels, out_channels, ksize, stride, pad, nobias,
            outsize, initialW, initial_bias, dilate, groups)
