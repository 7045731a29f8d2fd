"""N-dimensional convolutional layers."""

from chainer.functions.connection import convolution_nd
from chainer import initializers
from chainer import link
from chainer.links.connection.convolution_2d import _bias_parameter
from chainer.links.connection.convolution_2d import _check_groups
from chainer.utils import argument
from chainer.utils import conv_nd
from chainer import variable


class _ConvolutionNDLinkBase(link.Link):
    # What the N-dimensional convolution and deconvolution layers share:
    # the geometry arguments, the filters (shaped at the first call when
    # in_channels is None) and the bias. A subclass says how the channel
    # axes of W are laid out.

    def __init__(self, ndim, in_channels, out_channels, ksize, stride, pad,
                 nobias, initialW, initial_bias, dilate, groups):
        super().__init__()
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.out_channels = out_channels
        self.ksize = conv_nd.as_tuple(ksize, ndim)
        self.stride = stride
        self.pad = pad
        self.dilate = conv_nd.as_tuple(dilate, ndim)
        self.groups = int(groups)
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _bias_parameter(nobias, initial_bias, out_channels)

    def _filter_channels(self, in_channels):
        # The first two axes of W for the given number of input channels.
        raise NotImplementedError

    def _initialize_params(self, in_channels):
        _check_groups(in_channels, self.out_channels, self.groups)
        self.W.initialize(self._filter_channels(in_channels) + self.ksize)

    def _initialize_for(self, x):
        if self.W.array is None:
            self._initialize_params(x.shape[1])


class ConvolutionND(_ConvolutionNDLinkBase):
    """N-dimensional convolutional layer, holding the filters and the bias
    of :func:`~chainer.functions.convolution_nd`.

    ``W`` has shape ``(out_channels, in_channels / groups, k_1, ..., k_N)``
    and ``b`` shape ``(out_channels,)``.

    Args:
        ndim (int): Number of spatial axes ``N``.
        in_channels (int or None): Number of input channels; ``None`` for
            lazy initialization. With ``ksize`` omitted, the two channel
            arguments are ``out_channels`` and ``ksize``.
        out_channels (int): Number of output channels.
        ksize (int or tuple of ints): Filter size.
        stride (int or tuple of ints): Filter step.
        pad (int or tuple of ints): Zero padding of each spatial axis.
        nobias (bool): If ``True``, there is no bias.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.
        cover_all (bool): Whether every input element must be covered by
            some window (see :func:`~chainer.functions.convolution_nd`).
        dilate (int or tuple of ints): Dilation of the filter.
        groups (int): How many groups the channels are split into.

    Attributes:
        W (~chainer.Parameter): Filters.
        b (~chainer.Parameter): Bias, or ``None``.
    """

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, nobias=False, initialW=None, initial_bias=None,
                 cover_all=False, dilate=1, groups=1):
        super().__init__(
            ndim, in_channels, out_channels, ksize, stride, pad, nobias,
            initialW, initial_bias, dilate, groups)
        self.cover_all = cover_all

    def _filter_channels(self, in_channels):
        return self.out_channels, int(in_channels / self.groups)

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False,
                    **kwargs):
        """Makes a link holding copies of the given filters and bias.

        Args:
            W (:class:`~chainer.Variable` or :ref:`ndarray`): Filters of
                shape ``(out_channels, in_channels / groups, k_1, ...,
                k_N)``.
            b (:class:`~chainer.Variable` or :ref:`ndarray`): Bias, or
                ``None``.
            stride, pad, nobias: As in the constructor.
            cover_all, dilate, groups: As in the constructor (keyword
                only).

        Returns:
            ConvolutionND: The new link.
        """
        cover_all, dilate, groups = argument.parse_kwargs(
            kwargs, ('cover_all', False), ('dilate', 1), ('groups', 1))
        out_channels, in_group_channels, *ksize = W.shape
        if b is not None and out_channels != b.size:
            raise ValueError('`out_channels` does not match the size of `b`')
        return cls(len(ksize), in_group_channels * groups, out_channels,
                   ksize, stride, pad, nobias, initialW=variable.as_array(W),
                   initial_bias=variable.as_array(b), cover_all=cover_all,
                   dilate=dilate, groups=groups)

    def forward(self, x):
        """Applies the convolution.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_channels, d_1, ..., d_N)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_channels, out_1,
            ..., out_N)``.
        """
        self._initialize_for(x)
        return convolution_nd.convolution_nd(
            x, self.W, self.b, self.stride, self.pad,
            cover_all=self.cover_all, dilate=self.dilate, groups=self.groups)


class Convolution1D(ConvolutionND):
    """One-dimensional convolutional layer: :class:`ConvolutionND` with
    ``ndim=1``.

    The arguments (``in_channels``, ``out_channels``, ``ksize``,
    ``stride``, ``pad``, ``nobias``, ``initialW``, ``initial_bias``,
    ``cover_all``, ``dilate``, ``groups``) are those of
    :class:`ConvolutionND`.
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None,
                 cover_all=False, dilate=1, groups=1):
        super().__init__(
            1, in_channels, out_channels, ksize, stride, pad, nobias,
            initialW, initial_bias, cover_all, dilate, groups)


class Convolution3D(ConvolutionND):
    """Three-dimensional convolutional layer: :class:`ConvolutionND` with
    ``ndim=3``.

    The arguments (``in_channels``, ``out_channels``, ``ksize``,
    ``stride``, ``pad``, ``nobias``, ``initialW``, ``initial_bias``,
    ``cover_all``, ``dilate``, ``groups``) are those of
    :class:`ConvolutionND`.
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None,
                 cover_all=False, dilate=1, groups=1):
        super().__init__(
            3, in_channels, out_channels, ksize, stride, pad, nobias,
            initialW, initial_bias, cover_all, dilate, groups)
