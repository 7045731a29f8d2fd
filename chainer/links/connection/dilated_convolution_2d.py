"""Dilated two-dimensional convolutional layer."""

from chainer.functions.connection import dilated_convolution_2d
from chainer import initializers
from chainer import link
from chainer.links.connection.convolution_2d import _bias_parameter
from chainer.links.connection.convolution_2d import _pair
from chainer import variable


class DilatedConvolution2D(link.Link):
    """Dilated convolutional layer, holding the filters and the bias of
    :func:`~chainer.functions.dilated_convolution_2d`.

    Args:
        in_channels (int or None): Number of input channels; ``None`` for
            lazy initialization. With ``ksize`` omitted, the two channel
            arguments are ``out_channels`` and ``ksize``.
        out_channels (int): Number of output channels.
        ksize (int or pair of ints): Filter size ``(kh, kw)``.
        stride (int or pair of ints): Filter step.
        pad (int or pair of ints): Zero padding.
        dilate (int or pair of ints): Spacing ``(dy, dx)`` of the filter
            taps.
        nobias (bool): If ``True``, there is no bias.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.

    Attributes:
        W (~chainer.Parameter): Filters of shape ``(out_channels,
            in_channels, kh, kw)``.
        b (~chainer.Parameter): Bias of shape ``(out_channels,)``, or
            ``None``.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, dilate=1, nobias=False, initialW=None,
                 initial_bias=None):
        super().__init__()
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.dilate = _pair(dilate)
        self.out_channels = out_channels
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _bias_parameter(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels):
        kh, kw = _pair(self.ksize)
        self.W.initialize((self.out_channels, in_channels, kh, kw))

    def forward(self, x):
        """Applies the dilated convolution.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_channels, h, w)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_channels, out_h,
            out_w)``.
        """
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return dilated_convolution_2d.dilated_convolution_2d(
            x, self.W, self.b, self.stride, self.pad, self.dilate)
