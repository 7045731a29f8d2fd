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
            model to load. A name ending in ``.caffemodel`` (``'auto'``
            stands for ``ResNet-{n_layers}-model.caffemodel`` in the
            subclasses) loads the converted model
            ``ResNet-{n_layers}-model.npz`` from
            ``$CHAINER_DATASET_ROOT/pfnet/chainer/models/``; on the first
            use, that file is made by :meth:`convert_caffemodel_to_npz` from
            the Caffe model of that name in the same folder, which must be
            downloaded from MSRA by hand (a missing one raises
            :class:`OSError`, which names where to place it). ``None``
            initializes the convolutions as in the paper, from
            ``HeNormal(scale=1.0)``.
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
    # Depth converted by convert_caffemodel_to_npz when not given.
    _n_layers = 50

    def __init__(self, pretrained_model, n_layers, downsample_fb=False):
        super().__init__()
        if n_layers not in _BLOCKS:
            raise ValueError('The n_layers argument should be either 50, 101,'
                             ' or 152, but {} was given.'.format(n_layers))
        from_caffe = bool(pretrained_model) \
            and pretrained_model.endswith('.caffemodel')
        path = None if from_caffe \
            else _pretrained.pretrained_path(pretrained_model)
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

        if from_caffe:
            _pretrained.load_converted_model(
                self, 'ResNet-{}-model.npz'.format(n_layers),
                lambda: _find_caffemodel(pretrained_model),
                lambda path_caffemodel, path_npz:
                ResNetLayers.convert_caffemodel_to_npz(
                    path_caffemodel, path_npz, n_layers))
        elif path is not None:
            _pretrained.load_npz(path, self)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz,
                                  n_layers=None):
        """Converts a Caffe model of MSRA's ResNet to a ``.npz`` file.

        The layers of the Caffe model map to the links of
        :class:`ResNetLayers` of the same depth: ``conv1`` (with its bias
        only for 50 layers), ``bn_conv1`` and ``scale_conv1`` to ``conv1``
        and ``bn1``; ``fc1000`` to ``fc6``; and in each bottleneck, say
        ``res3b1`` (the second one of ``res3``, named ``res3b`` in
        ResNet-50), the branches ``res3b1_branch2a``, ``2b``, ``2c`` (and
        ``1``, the projection of the first bottleneck ``res3a``) to
        ``conv1``, ``conv2``, ``conv3`` (and ``conv4``). The Caffe model
        splits batch normalization in two layers: ``bn3b1_branch2a`` gives
        the statistics ``avg_mean`` and ``avg_var`` of ``bn1``,
        ``scale3b1_branch2a`` its ``gamma`` (the scale) and ``beta`` (the
        bias).

        Args:
            path_caffemodel (str): Path of the ``.caffemodel`` file.
            path_npz (str): Path of the ``.npz`` file to write
                (uncompressed).
            n_layers (int): 50, 101 or 152; by default, the depth of the
                class (50 for :class:`ResNetLayers`).
        """
        if n_layers is None:
            n_layers = cls._n_layers
        caffemodel = _pretrained.load_caffemodel(path_caffemodel)
        model = ResNetLayers(pretrained_model=None, n_layers=n_layers)
        _copy_conv_bn(model.conv1, model.bn1, caffemodel, 'conv1',
                      'bn_conv1', 'scale_conv1', bias=n_layers == 50)
        stages = (model.res2, model.res3, model.res4, model.res5)
        for stage, block in enumerate(stages, 2):
            names = _bottleneck_names(n_layers, stage, len(block._forward))
            for link_name, caffe_name in zip(block._forward, names):
                _copy_bottleneck(getattr(block, link_name), caffemodel,
                                 caffe_name)
        _pretrained.copy_link_params(model.fc6, caffemodel.fc1000)
        _pretrained.save_npz(path_npz, model)

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

    _n_layers = 50

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

    _n_layers = 101

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

    _n_layers = 152

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        if pretrained_model == 'auto':
            pretrained_model = 'ResNet-152-model.caffemodel'
        super().__init__(pretrained_model, 152, downsample_fb)


def prepare(image, size=(224, 224)):
    """Converts an image to the input array of the ResNet models.

    It takes the arguments of :func:`chainer.links.model.vision.vgg.prepare`
    and converts the image as it does, but subtracts the mean of each
    channel of the images that the ResNet models were trained on,
    ``(103.063, 115.903, 123.152)`` in BGR order.

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


def _find_caffemodel(name):
    # The Caffe model for pretrained_model: a path relative to the folder
    # of the pre-trained models. As Chainer 7.8, a missing one is announced
    # as being loaded, then reported with where to place it.
    path = os.path.join(_pretrained.models_directory(), name)
    if not os.path.exists(path):
        _pretrained.announce_conversion()
        raise OSError(
            'The pre-trained caffemodel does not exist. Please download it '
            'from \'{}\', and place it on {}'.format(_CAFFE_SOURCE, path))
    return path


def _bottleneck_names(n_layers, stage, count):
    # Caffe names of the bottlenecks of a stage: letters (res3a, res3b,
    # ...), except in the long stages res3 and res4 of the deeper models
    # (res4a, res4b1, res4b2, ...).
    if n_layers == 50 or stage in (2, 5):
        return ['{}{}'.format(stage, chr(ord('a') + i)) for i in range(count)]
    return ['{}a'.format(stage)] + [
        '{}b{}'.format(stage, i) for i in range(1, count)]


def _copy_conv_bn(conv, bn, caffemodel, conv_name, bn_name, scale_name,
                  bias=False):
    # A convolution and the BatchNorm and Scale layers after it.
    _pretrained.copy_link_params(
        conv, getattr(caffemodel, conv_name), bias=bias)
    caffe_bn = getattr(caffemodel, bn_name)
    caffe_scale = getattr(caffemodel, scale_name)
    bn.avg_mean[...] = caffe_bn.avg_mean
    bn.avg_var[...] = caffe_bn.avg_var
    bn.gamma.array[...] = caffe_scale.W.array
    bn.beta.array[...] = caffe_scale.bias.b.array


def _copy_bottleneck(bottleneck, caffemodel, name):
    # Branches 2a, 2b, 2c of the residual path, and 1 of the projection.
    branches = ['2a', '2b', '2c']
    if isinstance(bottleneck, BottleneckA):
        branches.append('1')
    for i, branch in enumerate(branches, 1):
        suffix = '{}_branch{}'.format(name, branch)
        _copy_conv_bn(getattr(bottleneck, 'conv{}'.format(i)),
                      getattr(bottleneck, 'bn{}'.format(i)), caffemodel,
                      'res' + suffix, 'bn' + suffix, 'scale' + suffix)


def _global_average_pooling_2d(x):
    n, channels, rows, cols = x.shape
    h = average_pooling_2d(x, (rows, cols), stride=1)
    return reshape(h, (n, channels))
