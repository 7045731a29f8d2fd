"""Depthwise two-dimensional convolutional layer."""

import numpy

from chainer.functions.connection import depthwise_convolution_2d
from chainer import initializers
from chainer import link
from chainer.links.connection.convolution_2d import _bias_parameter
from chainer.links.connection.convolution_2d import _pair
from chainer import variable


class DepthwiseConvolution2D(link.Link):
    """Depthwise convolutional layer, holding the filters and the bias of
    :func:`~chainer.functions.depthwise_convolution_2d`.

    Each input channel is convolved separately with ``channel_multiplier``
    filters, giving ``in_channels * channel_multiplier`` output channels.

    Args:
        in_channels (int or None): Number of input channels; ``None`` for
            lazy initialization.
        channel_multiplier (int): Number of filters per input channel.
        ksize (int or pair of ints): Filter size ``(kh, kw)``.
        stride (int or pair of ints): Filter step.
        pad (int or pair of ints): Zero padding.
        nobias (bool): If ``True``, there is no bias.
        initialW: Initializer of ``W``; ``None`` means
            ``HeNormal(1 / sqrt(2))``.
        initial_bias: Initializer of ``b``; ``None`` means zeros.

    Attributes:
        W (~chainer.Parameter): Filters of shape ``(channel_multiplier,
            in_channels, kh, kw)``.
        b (~chainer.Parameter): Bias of shape ``(in_channels *
            channel_multiplier,)``, or ``None``.
    """

    def __init__(self, in_channels, channel_multiplier, ksize, stride=1,
                 pad=0, nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.channel_multiplier = channel_multiplier
        self.nobias = nobias
        if initialW is None:
            initialW = initializers.HeNormal(1.0 / numpy.sqrt(2))
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            self.b = _bias_parameter(nobias, initial_bias, None)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        kh, kw = _pair(self.ksize)
        self.W.initialize((self.channel_multiplier, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize(self.channel_multiplier * in_channels)

    def forward(self, x):
        """Applies the depthwise convolution.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_channels, h, w)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, in_channels *
            channel_multiplier, out_h, out_w)``.
        """
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return depthwise_convolution_2d.depthwise_convolution_2d(
            x, self.W, self.b, self.stride, self.pad)
