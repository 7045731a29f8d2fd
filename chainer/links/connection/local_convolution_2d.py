"""Locally-connected two-dimensional layer."""

from chainer.functions.connection import local_convolution_2d
from chainer import initializers
from chainer import link
from chainer.links.connection.convolution_2d import _bias_parameter
from chainer.links.connection.convolution_2d import _pair
from chainer import variable


class LocalConvolution2D(link.Link):
    """Locally-connected layer, holding the weights and the bias of
    :func:`~chainer.functions.local_convolution_2d`: a convolution without
    weight sharing, with one filter per output position.

    Args:
        in_channels (int or None): Number of input channels; with
            ``in_size``, ``None`` delays the initialization to the first
            call.
        out_channels (int): Number of output channels.
        in_size (int or pair of ints): Spatial size ``(h, w)`` of the
            input; ``None`` for lazy initialization.
        ksize (int or pair of ints): Filter size ``(kh, kw)``.
        stride (int or pair of ints): Filter step ``(sy, sx)``.
        nobias (bool): If ``True``, there is no bias.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.
        **kwargs: Accepted and ignored, as Chainer does.

    Attributes:
        W (~chainer.Parameter): Weights of shape ``(out_channels, out_h,
            out_w, in_channels, kh, kw)``, with ``out_h = (h - kh) // sy +
            1`` and likewise ``out_w``.
        b (~chainer.Parameter): Bias of shape ``(out_channels, out_h,
            out_w)``, or ``None``.
    """

    def __init__(self, in_channels, out_channels, in_size=None, ksize=None,
                 stride=1, nobias=False, initialW=None, initial_bias=None,
                 **kwargs):
        super().__init__()
        self.ksize = ksize
        self.stride = _pair(stride)
        self.nobias = nobias
        self.out_channels = out_channels
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            self.b = _bias_parameter(nobias, initial_bias, None)
            if in_channels is not None and in_size is not None:
                self._initialize_params(in_channels, _pair(in_size))

    def _initialize_params(self, in_channels, in_size):
        kh, kw = _pair(self.ksize)
        ih, iw = _pair(in_size)
        sy, sx = self.stride
        oh = (ih - kh) // sy + 1
        ow = (iw - kw) // sx + 1
        self.W.initialize((self.out_channels, oh, ow, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize((self.out_channels, oh, ow))

    def forward(self, x):
        """Applies the locally-connected layer.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_channels, h, w)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_channels, out_h,
            out_w)``.
        """
        if self.W.array is None:
            self._initialize_params(x.shape[1], x.shape[2:])
        return local_convolution_2d.local_convolution_2d(
            x, self.W, self.b, self.stride)
