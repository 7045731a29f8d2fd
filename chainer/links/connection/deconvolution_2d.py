"""Two-dimensional deconvolution (transposed convolution) layer."""

import numpy

from chainer.backends import cuda
from chainer.functions.connection import deconvolution_2d
from chainer import initializers
from chainer import link
from chainer.links.connection.convolution_2d import _bias_parameter
from chainer.links.connection.convolution_2d import _check_groups
from chainer.links.connection.convolution_2d import _deterministic_message
from chainer.links.connection.convolution_2d import _pair
from chainer.utils import argument
from chainer import variable


class Deconvolution2D(link.Link):
    """Two-dimensional deconvolution layer, holding the filters and the
    bias of :func:`~chainer.functions.deconvolution_2d`.

    ``W`` has shape ``(in_channels, out_channels / groups, kh, kw)`` and
    ``b`` shape ``(out_channels,)``. When ``in_channels`` is ``None``,
    ``W`` is made at the first call from the channels of the input.

    Args:
        in_channels (int or None): Number of input channels; ``None`` for
            lazy initialization. With ``ksize`` omitted, the two channel
            arguments are ``out_channels`` and ``ksize``.
        out_channels (int): Number of output channels.
        ksize (int or pair of ints): Filter size ``(kh, kw)``.
        stride (int or pair of ints): Step ``(sy, sx)`` of the filter on
            the output.
        pad (int or pair of ints): Padding ``(ph, pw)`` cropped from the
            output.
        nobias (bool): If ``True``, there is no bias.
        outsize (tuple of ints): Expected output size ``(out_h, out_w)``;
            computed from the other arguments when omitted.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.
        dilate (int or pair of ints): Dilation of the filter (keyword
            only).
        groups (int): Number of channel groups (keyword only).

    Attributes:
        W (~chainer.Parameter): Filters.
        b (~chainer.Parameter): Bias, or ``None``.

    .. admonition:: Example

        >>> deconv = L.Deconvolution2D(None, 2, 4, stride=2, pad=1)
        >>> deconv(np.zeros((1, 3, 5, 5), np.float32)).shape
        (1, 2, 10, 10)
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, nobias=False, outsize=None, initialW=None,
                 initial_bias=None, **kwargs):
        super().__init__()
        dilate, groups = argument.parse_kwargs(
            kwargs, ('dilate', 1), ('groups', 1),
            deterministic=_deterministic_message)
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.dilate = _pair(dilate)
        self.outsize = (None, None) if outsize is None else outsize
        self.out_channels = out_channels
        self.groups = int(groups)
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            if not nobias and isinstance(
                    initial_bias, (numpy.ndarray, cuda.ndarray)):
                assert initial_bias.shape == (out_channels,)
            self.b = _bias_parameter(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels):
        kh, kw = _pair(self.ksize)
        _check_groups(in_channels, self.out_channels, self.groups)
        self.W.initialize(
            (in_channels, int(self.out_channels / self.groups), kh, kw))

    def forward(self, x):
        """Applies the deconvolution.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_channels, h, w)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_channels, out_h,
            out_w)``.
        """
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return deconvolution_2d.deconvolution_2d(
            x, self.W, self.b, self.stride, self.pad, self.outsize,
            dilate=self.dilate, groups=self.groups)
