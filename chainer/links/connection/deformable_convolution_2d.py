"""Deformable two-dimensional convolutional layer."""

from chainer.functions.connection import deformable_convolution_2d_sampler
from chainer import initializers
from chainer import link
from chainer.links.connection.convolution_2d import _bias_parameter
from chainer.links.connection.convolution_2d import _pair
from chainer.links.connection.convolution_2d import Convolution2D
from chainer import variable


class DeformableConvolution2D(link.Chain):
    """Deformable convolutional layer: a convolution whose sampling grid
    is shifted by offsets that another convolution predicts.

    ``offset_conv`` maps the input to ``2 * kh * kw`` offset channels
    (the vertical, then the horizontal shift of each filter tap, per
    output position), and ``deform_conv`` samples the input at the shifted
    taps and applies its filters, as
    :func:`~chainer.functions.deformable_convolution_2d_sampler`.

    Args:
        in_channels (int or None): Number of input channels; ``None`` for
            lazy initialization.
        out_channels (int): Number of output channels.
        ksize (int or pair of ints): Filter size ``(kh, kw)``.
        stride (int or pair of ints): Filter step.
        pad (int or pair of ints): Zero padding.
        offset_nobias (bool): If ``True``, the offset convolution has no
            bias.
        offset_initialW: Initializer of the offset filters; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        offset_initial_bias: Initializer of the offset bias; ``None`` means
            zeros.
        deform_nobias (bool): If ``True``, the deformable convolution has
            no bias.
        deform_initialW: Initializer of the deformable filters; ``None``
            means zeros.
        deform_initial_bias: Initializer of the deformable bias; ``None``
            means zeros.

    See: Dai et al., `Deformable Convolutional Networks
    <https://arxiv.org/abs/1703.06211>`_
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 offset_nobias=False, offset_initialW=None,
                 offset_initial_bias=None, deform_nobias=False,
                 deform_initialW=None, deform_initial_bias=None):
        super().__init__()
        kh, kw = _pair(ksize)
        with self.init_scope():
            self.offset_conv = Convolution2D(
                in_channels, 2 * kh * kw, ksize, stride, pad,
                offset_nobias, offset_initialW, offset_initial_bias)
            self.deform_conv = DeformableConvolution2DSampler(
                in_channels, out_channels, ksize, stride, pad,
                deform_nobias, deform_initialW, deform_initial_bias)

    def forward(self, x):
        """Applies the deformable convolution.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_channels, h, w)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_channels, out_h,
            out_w)``.
        """
        return self.deform_conv(x, self.offset_conv(x))


class DeformableConvolution2DSampler(link.Link):
    """The sampling part of :class:`DeformableConvolution2D`: holds the
    filters and the bias of
    :func:`~chainer.functions.deformable_convolution_2d_sampler`.

    Args:
        in_channels (int or None): Number of input channels; ``None`` for
            lazy initialization.
        out_channels (int): Number of output channels.
        ksize (int or pair of ints): Filter size ``(kh, kw)``.
        stride (int or pair of ints): Filter step.
        pad (int or pair of ints): Zero padding.
        nobias (bool): If ``True``, there is no bias.
        initialW: Initializer of ``W``; ``None`` means zeros.
        initial_bias: Initializer of ``b``; ``None`` means zeros.

    Attributes:
        W (~chainer.Parameter): Filters of shape ``(out_channels,
            in_channels, kh, kw)``.
        b (~chainer.Parameter): Bias of shape ``(out_channels,)``, or
            ``None``.
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.out_channels = out_channels
        self.initialW = initialW
        if initialW is None:
            initialW = initializers.Zero()
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            self.b = _bias_parameter(nobias, initial_bias, None)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        kh, kw = _pair(self.ksize)
        self.W.initialize((self.out_channels, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize(self.out_channels)

    def forward(self, x, offset):
        """Samples the input at the offset taps and convolves it.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_channels, h, w)``.
            offset (:class:`~chainer.Variable` or :ref:`ndarray`): Offsets
                of shape ``(n, 2 * kh * kw, out_h, out_w)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_channels, out_h,
            out_w)``.
        """
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return deformable_convolution_2d_sampler\
            .deformable_convolution_2d_sampler(
                x, offset, self.W, self.b, self.stride, self.pad)
