"""Inception module of GoogLeNet."""

from chainer.functions.activation import relu
from chainer.functions.array import concat
from chainer.functions.pooling import max_pooling_nd
from chainer import link
from chainer.links.connection import convolution_2d


class Inception(link.Chain):
    """Inception module of the first GoogLeNet.

    Four branches see the input and their outputs are concatenated along
    the channels, then rectified: a 1x1 convolution (``conv1``); a 1x1
    projection then a 3x3 convolution (``proj3``, ``conv3``); a 1x1
    projection then a 5x5 convolution (``proj5``, ``conv5``); a 3x3 max
    pooling then a 1x1 projection (``projp``). The projections are
    rectified; the spatial size is kept.

    Args:
        in_channels (int or None): Number of input channels; ``None`` for
            lazy initialization.
        out1 (int): Output channels of the 1x1 branch.
        proj3 (int): Channels of the projection before the 3x3
            convolution.
        out3 (int): Output channels of the 3x3 branch.
        proj5 (int): Channels of the projection before the 5x5
            convolution.
        out5 (int): Output channels of the 5x5 branch.
        proj_pool (int): Output channels of the pooling branch.
        conv_init: Initializer of the filters.
        bias_init: Initializer of the biases.

    The output has ``out1 + out3 + out5 + proj_pool`` channels.

    See: Szegedy et al., `Going Deeper with Convolutions
    <https://arxiv.org/abs/1409.4842>`_
    """

    def __init__(self, in_channels, out1, proj3, out3, proj5, out5,
                 proj_pool, conv_init=None, bias_init=None):
        super().__init__()

        def conv(n_in, n_out, ksize, pad=0):
            return convolution_2d.Convolution2D(
                n_in, n_out, ksize, pad=pad, initialW=conv_init,
                initial_bias=bias_init)

        with self.init_scope():
            self.conv1 = conv(in_channels, out1, 1)
            self.proj3 = conv(in_channels, proj3, 1)
            self.conv3 = conv(proj3, out3, 3, pad=1)
            self.proj5 = conv(in_channels, proj5, 1)
            self.conv5 = conv(proj5, out5, 5, pad=2)
            self.projp = conv(in_channels, proj_pool, 1)

    def forward(self, x):
        """Applies the module.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_channels, h, w)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out1 + out3 + out5 +
            proj_pool, h, w)``.
        """
        out1 = self.conv1(x)
        out3 = self.conv3(relu.relu(self.proj3(x)))
        out5 = self.conv5(relu.relu(self.proj5(x)))
        pool = self.projp(max_pooling_nd.max_pooling_2d(
            x, 3, stride=1, pad=1))
        return relu.relu(concat.concat((out1, out3, out5, pool), axis=1))
