"""Inception module with batch normalization (Inception v2)."""

from chainer import configuration
from chainer.functions.activation import relu
from chainer.functions.array import concat
from chainer.functions.pooling import average_pooling_2d
from chainer.functions.pooling import max_pooling_nd
from chainer import link
from chainer.links.connection import convolution_2d
from chainer.links.normalization import batch_normalization


class InceptionBN(link.Chain):
    """Inception module of the batch-normalized GoogLeNet.

    Branches, each convolution followed by batch normalization and ReLU:
    an optional 1x1 convolution (``conv1``, when ``out1 > 0``); a 1x1
    projection then a 3x3 convolution (``proj3``, ``conv3``); a 1x1
    projection then two 3x3 convolutions (``proj33``, ``conv33a``,
    ``conv33b``); a 3x3 max or average pooling, followed by a 1x1
    projection when ``proj_pool`` is given (``poolp``). The outputs are
    concatenated along the channels. The convolutions have no bias.

    Args:
        in_channels (int or None): Number of input channels.
        out1 (int): Output channels of the 1x1 branch; ``0`` leaves it
            out (required when ``stride > 1``).
        proj3 (int): Channels of the projection before the 3x3
            convolution.
        out3 (int): Output channels of the 3x3 branch.
        proj33 (int): Channels of the projection before the double 3x3
            convolution.
        out33 (int): Output channels of the double 3x3 branch.
        pooltype (str): ``'max'`` or ``'avg'``.
        proj_pool (int or None): Output channels of the projection after
            the pooling; ``None`` keeps the pooled input as it is.
        stride (int): Stride of the last convolution of each branch and
            of the pooling.
        conv_init: Initializer of the filters.
        dtype: Data type of the batch normalization parameters.

    See: Ioffe and Szegedy, `Batch Normalization: Accelerating Deep
    Network Training by Reducing Internal Covariate Shift
    <https://arxiv.org/abs/1502.03167>`_
    """

    def __init__(self, in_channels, out1, proj3, out3, proj33, out33,
                 pooltype, proj_pool=None, stride=1, conv_init=None,
                 dtype=None):
        super().__init__()
        self.out1 = out1
        self.proj_pool = proj_pool
        self.stride = stride
        self.pooltype = pooltype
        if pooltype != 'max' and pooltype != 'avg':
            raise NotImplementedError()
        dtype = configuration.get_dtype(dtype)

        def conv(n_in, n_out, ksize, pad=0, stride=1):
            return convolution_2d.Convolution2D(
                n_in, n_out, ksize, pad=pad, stride=stride, nobias=True,
                initialW=conv_init)

        def bn(size):
            return batch_normalization.BatchNormalization(size, dtype=dtype)

        with self.init_scope():
            self.proj3 = conv(in_channels, proj3, 1)
            self.conv3 = conv(proj3, out3, 3, pad=1, stride=stride)
            self.proj33 = conv(in_channels, proj33, 1)
            self.conv33a = conv(proj33, out33, 3, pad=1)
            self.conv33b = conv(out33, out33, 3, pad=1, stride=stride)
            self.proj3n = bn(proj3)
            self.conv3n = bn(out3)
            self.proj33n = bn(proj33)
            self.conv33an = bn(out33)
            self.conv33bn = bn(out33)
            if out1 > 0:
                assert stride == 1
                assert proj_pool is not None
                self.conv1 = conv(in_channels, out1, 1, stride=stride)
                self.conv1n = bn(out1)
            if proj_pool is not None:
                self.poolp = conv(in_channels, proj_pool, 1)
                self.poolpn = bn(proj_pool)

    def forward(self, x):
        """Applies the module.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_channels, h, w)``.

        Returns:
            ~chainer.Variable: The concatenated branch outputs.
        """
        outs = []
        if self.out1 > 0:
            outs.append(relu.relu(self.conv1n(self.conv1(x))))
        h3 = relu.relu(self.proj3n(self.proj3(x)))
        outs.append(relu.relu(self.conv3n(self.conv3(h3))))
        h33 = relu.relu(self.proj33n(self.proj33(x)))
        h33 = relu.relu(self.conv33an(self.conv33a(h33)))
        outs.append(relu.relu(self.conv33bn(self.conv33b(h33))))
        if self.pooltype == 'max':
            p = max_pooling_nd.max_pooling_2d(
                x, 3, stride=self.stride, pad=1, cover_all=False)
        else:
            p = average_pooling_2d.average_pooling_2d(
                x, 3, stride=self.stride, pad=1)
        if self.proj_pool is not None:
            p = relu.relu(self.poolpn(self.poolp(p)))
        outs.append(p)
        return concat.concat(outs, axis=1)
