"""The mlpconv block of Network in Network: a convolution and 1x1 ones."""

from chainer.functions.activation import relu
from chainer import link
from chainer.links.connection import convolution_2d
from chainer.utils import argument


class MLPConvolution2D(link.ChainList):
    """A convolution followed by 1x1 convolutions: a small MLP applied at
    every position of the window.

    The first child is a :class:`~chainer.links.Convolution2D` of filter
    size ``ksize`` to ``out_channels[0]`` channels, each next one a 1x1
    convolution to the next entry of ``out_channels``. ``activation`` is
    applied between the convolutions, not after the last one.

    Args:
        in_channels (int or None): Number of input channels; ``None`` for
            lazy initialization. With ``ksize`` omitted, the first two
            arguments are ``out_channels`` and ``ksize``.
        out_channels (tuple of ints): Output channels of the successive
            convolutions.
        ksize (int or pair of ints): Filter size of the first convolution.
        stride (int or pair of ints): Stride of the first convolution.
        pad (int or pair of ints): Padding of the first convolution.
        activation: Activation between the convolutions.
        conv_init: Initializer of the filters (keyword only).
        bias_init: Initializer of the biases (keyword only).

    See: Lin et al., `Network In Network <https://arxiv.org/abs/1312.4400>`_
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, activation=relu.relu, *args, **kwargs):
        msg = ('wscale is not supported anymore. '
               'Use conv_init and bias_init argument to change '
               'the scale of initial parameters.')
        if args:
            raise TypeError(msg)
        argument.check_unexpected_kwargs(kwargs, wscale=msg)
        conv_init, bias_init = argument.parse_kwargs(
            kwargs, ('conv_init', None), ('bias_init', None))
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        assert len(out_channels) > 0
        convs = [convolution_2d.Convolution2D(
            in_channels, out_channels[0], ksize, stride, pad,
            initialW=conv_init, initial_bias=bias_init)]
        for n_in, n_out in zip(out_channels, out_channels[1:]):
            convs.append(convolution_2d.Convolution2D(
                n_in, n_out, 1, initialW=conv_init, initial_bias=bias_init))
        super().__init__(*convs)
        self.activation = activation

    def forward(self, x):
        """Applies the convolutions.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_channels, h, w)``.

        Returns:
            ~chainer.Variable: What the final convolution gives.
        """
        for conv in self[:-1]:
            x = self.activation(conv(x))
        return self[-1](x)
