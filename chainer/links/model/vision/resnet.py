"""Residual networks of 50, 101 and 152 layers (He et al., MSRA)."""

import collections
import os
import warnings

from chainer.functions.activation.relu import relu
from chainer.functions.activation.softmax import softmax
from chainer.functions.array.reshape import reshape
from chainer.functions.pooling.average_pooling_2d import average_pooling_2d
from chainer.functions.pooling.max_pooling_nd import max_pooling_2d
from chainer.initializers import constant
from chainer.initializers import normal
from chainer import link
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.linear import Linear
from chainer.links.normalization.batch_normalization import BatchNormalization
from chainer.links.model.vision import _pretrained


# Whether Pillow, which ``prepare`` needs, can be imported.
available = _pretrained.available
__getattr__ = _pretrained.module_getattr(__name__)


_MEAN = (103.063, 115.903, 123.152)  # BGR

# Number of bottlenecks in res2, ..., res5.
_BLOCKS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}

_CAFFE_SOURCE = 'https://github.com/KaimingHe/deep-residual-networks'


class ResNetLayers(_pretrained.PretrainedModel):

    """Residual network, pre-trained on ImageNet by MSRA.

    Use :class:`ResNet50Layers`, :class:`ResNet101Layers` or
    :class:`ResNet152Layers`. The model extracts features (``forward``,
    ``extract``) or classifies images (``predict``) into the 1000 ImageNet
    classes; images go through :func:`prepare` first. Its layers are
    ``conv1, pool1, res2, res3, res4, res5, pool5, fc6, prob``.

    See: K. He et al., `Deep Residual Learning for Image Recognition
    <https://arxiv.org/abs/1512.03385>`_

    Args:
        pretrained_model (str): Path of a ``.npz`` file of the pre-trained
            model to load. A name ending in ``.caffemodel`` (what ``'auto'``
            stands for in the subclasses) loads the converted model
            ``ResNet-{n_layers}-model.npz`` from
            ``$CHAINER_DATASET_ROOT/pfnet/chainer/models/`` (converting the
            Caffe model is not possible here: a missing file raises
            :class:`FileNotFoundError`). ``None`` initializes the
            convolutions as in the paper, from ``HeNormal(scale=1.0)``.
        n_layers (int): 50, 101 or 152.
        downsample_fb (bool): If ``True``, the bottlenecks that halve the
            resolution put the stride on their 3x3 convolution (Facebook's
            ResNet); otherwise on their first 1x1 convolution (MSRA's
            ResNet of the paper).

    Attributes:
        available_layers (list of str): Names of the layers ``forward`` and
            ``extract`` can return.
    """

    _mean = _MEAN

    def __init__(self, pretrained_model, n_layers, downsample_fb=False):
        super().__init__()
        if n_layers not in _BLOCKS:
            raise ValueError('The n_layers argument should be either 50, 101,'
                             ' or 152, but {} was given.'.format(n_layers))
        if pretrained_model and pretrained_model.endswith('.caffemodel'):
            path = _pretrained.cached_model_path(
                'ResNet-{}-model.npz'.format(n_layers),
                '{} from {}'.format(
                    os.path.basename(pretrained_model), _CAFFE_SOURCE))
        else:
            path = _pretrained.pretrained_path(pretrained_model)
        if pretrained_model:
            # The weights are overwritten: zeros are cheaper than sampling.
            conv_kwargs = {'initialW': constant.Zero()}
        else:
            conv_kwargs = {'initialW': normal.HeNormal(scale=1.0)}
        kwargs = dict(conv_kwargs, downsample_fb=downsample_fb)
        block = _BLOCKS[n_layers]

        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, 2, 3, **conv_kwargs)
            self.bn1 = BatchNormalization(64)
            self.res2 = BuildingBlock(block[0], 64, 64, 256, 1, **kwargs)
            self.res3 = BuildingBlock(block[1], 256, 128, 512, 2, **kwargs)
            self.res4 = BuildingBlock(block[2], 512, 256, 1024, 2, **kwargs)
            self.res5 = BuildingBlock(block[3], 1024, 512, 2048, 2, **kwargs)
            self.fc6 = Linear(2048, 1000)

        if path is not None:
            _pretrained.load_npz(path, self)

    @property
    def functions(self):
        return collections.OrderedDict([
            ('conv1', [self.conv1, self.bn1, relu]),
            ('pool1', [_max_pooling_2d]),
            ('res2', [self.res2]),
            ('res3', [self.res3]),
            ('res4', [self.res4]),
            ('res5', [self.res5]),
            ('pool5', [_global_average_pooling_2d]),
            ('fc6', [self.fc6]),
            ('prob', [softmax]),
        ])


class ResNet50Layers(ResNetLayers):

    """Residual network of 50 layers, pre-trained on ImageNet.

    It has 25,557,096 parameters. See :class:`ResNetLayers`.

    Args:
        pretrained_model (str): Path of a ``.npz`` file to load,
            ``'auto'`` or ``None`` (see :class:`ResNetLayers`).
        downsample_fb (bool): Where the stride of the downsampling
            bottlenecks goes (see :class:`ResNetLayers`).

    Attributes:
        available_layers (list of str): Names of the layers ``forward`` and
            ``extract`` can return.
    """

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        if pretrained_model == 'auto':
            pretrained_model = 'ResNet-50-model.caffemodel'
        super().__init__(pretrained_model, 50, downsample_fb)


class ResNet101Layers(ResNetLayers):

    """Residual network of 101 layers, pre-trained on ImageNet.

    See :class:`ResNetLayers`.

    Args:
        pretrained_model (str): Path of a ``.npz`` file to load,
            ``'auto'`` or ``None`` (see :class:`ResNetLayers`).
        downsample_fb (bool): Where the stride of the downsampling
            bottlenecks goes (see :class:`ResNetLayers`).

    Attributes:
        available_layers (list of str): Names of the layers ``forward`` and
            ``extract`` can return.
    """

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        if pretrained_model == 'auto':
            pretrained_model = 'ResNet-101-model.caffemodel'
        super().__init__(pretrained_model, 101, downsample_fb)


class ResNet152Layers(ResNetLayers):

    """Residual network of 152 layers, pre-trained on ImageNet.

    It has 60,192,872 parameters. See :class:`ResNetLayers`.

    Args:
        pretrained_model (str): Path of a ``.npz`` file to load,
            ``'auto'`` or ``None`` (see :class:`ResNetLayers`).
        downsample_fb (bool): Where the stride of the downsampling
            bottlenecks goes (see :class:`ResNetLayers`).

    Attributes:
        available_layers (list of str): Names of the layers ``forward`` and
            ``extract`` can return.
    """

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        if pretrained_model == 'auto':
            pretrained_model = 'ResNet-152-model.caffemodel'
        super().__init__(pretrained_model, 152, downsample_fb)


def prepare(image, size=(224, 224)):
    """Converts an image to the input array of the ResNet models.

    It resizes the image (with Pillow), converts RGB to BGR, subtracts the
    mean of the ImageNet images of each channel and puts the channels
    first.

    Args:
        image (PIL.Image.Image or numpy.ndarray): An RGB image; an array
            may have the shape ``(H, W)``, ``(H, W, C)`` or ``(C, H, W)``.
        size (pair of ints): Size of the output, or ``None`` to keep the
            size of the image.

    Returns:
        numpy.ndarray: Array of shape ``(3, H, W)``.
    """
    return _pretrained.prepare_image(image, size, _MEAN)


class BuildingBlock(link.Chain):

    """A stage of bottlenecks: one :class:`BottleneckA` (``a``), then
    :class:`BottleneckB` ones (``b1``, ``b2``, ...).

    Args:
        n_layers (int): Number of bottlenecks.
        in_channels (int): Number of input channels.
        mid_channels (int): Number of channels inside the bottlenecks.
        out_channels (int): Number of output channels.
        stride (int or pair of ints): Stride of the first bottleneck.
        initialW: Initializer of the convolutions.
        downsample_fb (bool): Where the stride of the first bottleneck goes
            (see :class:`BottleneckA`).
        n_layer (int): Deprecated name of ``n_layers`` (keyword only).
    """

    def __init__(self, n_layers=None, in_channels=None, mid_channels=None,
                 out_channels=None, stride=None, initialW=None,
                 downsample_fb=None, **kwargs):
        super().__init__()
        if 'n_layer' in kwargs:
            warnings.warn(
                'Argument `n_layer` is deprecated. '
                'Please use `n_layers` instead',
                DeprecationWarning)
            n_layers = kwargs['n_layer']

        with self.init_scope():
            self.a = BottleneckA(in_channels, mid_channels, out_channels,
                                 stride, initialW, downsample_fb)
            self._forward = ['a']
            for i in range(1, n_layers):
                name = 'b{}'.format(i)
                setattr(self, name, BottleneckB(
                    out_channels, mid_channels, initialW))
                self._forward.append(name)

    def forward(self, x):
        for name in self._forward:
            x = getattr(self, name)(x)
        return x


def _conv_bn(in_channels, out_channels, ksize, stride, pad, initialW):
    # A convolution without bias and the batch normalization after it.
    conv = Convolution2D(in_channels, out_channels, ksize, stride, pad,
                         initialW=initialW, nobias=True)
    return conv, BatchNormalization(out_channels)


class BottleneckA(link.Chain):

    """Bottleneck that changes the number of channels (and resolution).

    A 1x1, a 3x3 and a 1x1 convolution, each followed by batch
    normalization (``conv1, bn1, ..., conv3, bn3``), are added to a 1x1
    projection of the input (``conv4, bn4``) and rectified.

    Args:
        in_channels (int): Number of input channels.
        mid_channels (int): Number of channels inside the bottleneck.
        out_channels (int): Number of output channels.
        stride (int or pair of ints): Stride of the bottleneck.
        initialW: Initializer of the convolutions.
        downsample_fb (bool): If ``True``, the stride is on the 3x3
            convolution (Facebook's ResNet); otherwise on the first 1x1
            convolution (MSRA's ResNet of the paper). The projection always
            has it.
    """

    def __init__(self, in_channels, mid_channels, out_channels,
                 stride=2, initialW=None, downsample_fb=False):
        super().__init__()
        stride_1x1, stride_3x3 = (1, stride) if downsample_fb else (stride, 1)
        with self.init_scope():
            self.conv1, self.bn1 = _conv_bn(
                in_channels, mid_channels, 1, stride_1x1, 0, initialW)
            self.conv2, self.bn2 = _conv_bn(
                mid_channels, mid_channels, 3, stride_3x3, 1, initialW)
            self.conv3, self.bn3 = _conv_bn(
                mid_channels, out_channels, 1, 1, 0, initialW)
            self.conv4, self.bn4 = _conv_bn(
                in_channels, out_channels, 1, stride, 0, initialW)

    def forward(self, x):
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return relu(h + self.bn4(self.conv4(x)))


class BottleneckB(link.Chain):

    """Bottleneck that keeps the shape of its input.

    A 1x1, a 3x3 and a 1x1 convolution, each followed by batch
    normalization (``conv1, bn1, ..., conv3, bn3``), are added to the input
    and rectified.

    Args:
        in_channels (int): Number of input (and output) channels.
        mid_channels (int): Number of channels inside the bottleneck.
        initialW: Initializer of the convolutions.
    """

    def __init__(self, in_channels, mid_channels, initialW=None):
        super().__init__()
        with self.init_scope():
            self.conv1, self.bn1 = _conv_bn(
                in_channels, mid_channels, 1, 1, 0, initialW)
            self.conv2, self.bn2 = _conv_bn(
                mid_channels, mid_channels, 3, 1, 1, initialW)
            self.conv3, self.bn3 = _conv_bn(
                mid_channels, in_channels, 1, 1, 0, initialW)

    def forward(self, x):
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return relu(h + x)


def _max_pooling_2d(x):
    return max_pooling_2d(x, ksize=3, stride=2)


def _global_average_pooling_2d(x):
    n, channels, rows, cols = x.shape
    h = average_pooling_2d(x, (rows, cols), stride=1)
    return reshape(h, (n, channels))
