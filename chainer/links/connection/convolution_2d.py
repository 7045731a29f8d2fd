"""Two-dimensional convolutional layer."""

from chainer import configuration
from chainer.functions.connection import convolution_2d
from chainer import initializers
from chainer import link
from chainer.utils import argument
from chainer import variable


_deterministic_message = (
    'deterministic argument is not supported anymore. '
    'Use chainer.using_config(\'cudnn_deterministic\', value) context '
    'where value is either `True` or `False`.')


def _pair(x):
    if hasattr(x, '__getitem__'):
        return x
    return x, x


def _check_groups(in_channels, out_channels, groups):
    if out_channels % groups != 0:
        raise ValueError('the number of output channels must be divisible '
                         'by the number of groups')
    if in_channels % groups != 0:
        raise ValueError('the number of input channels must be divisible '
                         'by the number of groups')


def _bias_parameter(nobias, initial_bias, shape):
    # The bias of the connection links: zeros unless told otherwise.
    if nobias:
        return None
    if initial_bias is None:
        initial_bias = 0
    return variable.Parameter(
        initializers._get_initializer(initial_bias), shape)


class Convolution2D(link.Link):
    """Two-dimensional convolutional layer, holding the filters and the
    bias of :func:`~chainer.functions.convolution_2d`.

    ``W`` has shape ``(out_channels, in_channels / groups, kh, kw)`` and
    ``b`` shape ``(out_channels,)``. When ``in_channels`` is ``None``,
    ``W`` is made at the first call from the channels of the input.

    Args:
        in_channels (int or None): Number of input channels; ``None`` for
            lazy initialization. With two positional arguments only, they
            are ``out_channels`` and ``ksize``:
            ``Convolution2D(16, 3)`` is ``Convolution2D(None, 16, 3)``.
        out_channels (int): Number of output channels.
        ksize (int or pair of ints): Filter size ``(kh, kw)``.
        stride (int or pair of ints): Filter step ``(sy, sx)``.
        pad (int or pair of ints): Zero padding ``(ph, pw)``.
        nobias (bool): If ``True``, there is no bias.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.
        dilate (int or pair of ints): Dilation ``(dy, dx)`` of the filter
            (keyword only).
        groups (int): Number of channel groups (keyword only).

    Attributes:
        W (~chainer.Parameter): Filters.
        b (~chainer.Parameter): Bias, or ``None``.

    .. admonition:: Example

        >>> conv = L.Convolution2D(None, 4, 3, pad=1)
        >>> conv(np.zeros((1, 3, 8, 8), np.float32)).shape
        (1, 4, 8, 8)
        >>> conv.W.shape
        (4, 3, 3, 3)
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, nobias=False, initialW=None, initial_bias=None,
                 **kwargs):
        super().__init__()
        dilate, groups = argument.parse_kwargs(
            kwargs, ('dilate', 1), ('groups', 1),
            deterministic=_deterministic_message)
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.cudnn_fast = configuration.config.compute_mode == 'cudnn_fast'
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.dilate = _pair(dilate)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.groups = int(groups)
        # Chainer's layout of x (channels first: None), which its forward
        # reads from links pickled here.
        self.x_layout = None
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _bias_parameter(nobias, initial_bias, out_channels)

    @property
    def printable_specs(self):
        yield 'in_channels', self.in_channels
        yield 'out_channels', self.out_channels
        yield 'ksize', self.ksize
        yield 'stride', self.stride
        yield 'pad', self.pad
        yield 'nobias', self.b is None
        yield 'dilate', self.dilate
        yield 'groups', self.groups

    def _initialize_params(self, in_channels):
        kh, kw = _pair(self.ksize)
        _check_groups(in_channels, self.out_channels, self.groups)
        self.W.initialize(
            (self.out_channels, int(in_channels / self.groups), kh, kw))

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False,
                    **kwargs):
        """Makes a link holding copies of the given filters and bias.

        Args:
            W (:class:`~chainer.Variable` or :ref:`ndarray`): Filters of
                shape ``(out_channels, in_channels / groups, kh, kw)``.
            b (:class:`~chainer.Variable` or :ref:`ndarray`): Bias, or
                ``None``.
            stride, pad, nobias: As in the constructor.
            dilate, groups: As in the constructor (keyword only).

        Returns:
            Convolution2D: The new link.
        """
        dilate, groups = argument.parse_kwargs(
            kwargs, ('dilate', 1), ('groups', 1))
        out_channels, in_group_channels, kh, kw = W.shape
        if b is not None and out_channels != b.size:
            raise ValueError('`out_channels` does not match the size of `b`')
        return cls(in_group_channels * groups, out_channels, (kh, kw),
                   stride, pad, nobias, initialW=variable.as_array(W),
                   initial_bias=variable.as_array(b), dilate=dilate,
                   groups=groups)

    def forward(self, x):
        """Applies the convolution.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_channels, h, w)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_channels, out_h,
            out_w)``.
        """
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return convolution_2d.convolution_2d(
            x, self.W, self.b, self.stride, self.pad, dilate=self.dilate,
            groups=self.groups, cudnn_fast=self.cudnn_fast)
