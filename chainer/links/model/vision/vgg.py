"""VGG networks of 16 and 19 layers (Simonyan and Zisserman)."""

import collections

from chainer.functions.activation.relu import relu
from chainer.functions.activation.softmax import softmax
from chainer.functions.noise.dropout import dropout
from chainer.functions.pooling.max_pooling_nd import max_pooling_2d
from chainer.initializers import constant
from chainer.initializers import normal
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.linear import Linear
from chainer.links.model.vision import _pretrained


# Whether Pillow, which ``prepare`` needs, can be imported.
available = _pretrained.available
__getattr__ = _pretrained.module_getattr(__name__)


_MEAN = (103.939, 116.779, 123.68)  # BGR

# Output channels of the convolutions of each block.
_BLOCKS = ((1, 64), (2, 128), (3, 256), (4, 512), (5, 512))

_URLS = {
    16: 'https://www.robots.ox.ac.uk/%7Evgg/software/very_deep/caffe/'
        'VGG_ILSVRC_16_layers.caffemodel',
    19: 'http://www.robots.ox.ac.uk/%7Evgg/software/very_deep/caffe/'
        'VGG_ILSVRC_19_layers.caffemodel',
}


class VGGLayers(_pretrained.PretrainedModel):

    """VGG network, pre-trained on ImageNet by the VGG team.

    Use :class:`VGG16Layers` or :class:`VGG19Layers`. The model extracts
    features (``forward``, ``extract``) or classifies images (``predict``)
    into the 1000 ImageNet classes; images go through :func:`prepare`
    first. The pre-trained weights are released under the Creative Commons
    Attribution License.

    See: K. Simonyan and A. Zisserman, `Very Deep Convolutional Networks
    for Large-Scale Image Recognition <https://arxiv.org/abs/1409.1556>`_

    Args:
        pretrained_model (str): Path of a ``.npz`` file of the pre-trained
            model to load. ``'auto'`` loads
            ``VGG_ILSVRC_{n_layers}_layers.npz`` from
            ``$CHAINER_DATASET_ROOT/pfnet/chainer/models/``; on the first
            use, that file is made from the Caffe model of the VGG team,
            downloaded (see :func:`chainer.dataset.cached_download`) and
            converted by :meth:`convert_caffemodel_to_npz`. ``None``
            initializes the weights as in the paper, from ``Normal(0.01)``
            with zero biases.
        n_layers (int): 16 or 19.

    Attributes:
        available_layers (list of str): Names of the layers ``forward`` and
            ``extract`` can return.
    """

    _mean = _MEAN
    _extract_layers = ('fc7',)

    def __init__(self, pretrained_model='auto', n_layers=16):
        super().__init__()
        if n_layers not in (16, 19):
            raise ValueError(
                'The n_layers argument should be either 16 or 19, '
                'but {} was given.'.format(n_layers))
        auto = pretrained_model == 'auto'
        path = None if auto else _pretrained.pretrained_path(pretrained_model)
        if pretrained_model:
            # The weights are overwritten: zeros are cheaper than sampling.
            kwargs = {'initialW': constant.Zero(),
                      'initial_bias': constant.Zero()}
        else:
            kwargs = {'initialW': normal.Normal(0.01),
                      'initial_bias': constant.Zero()}

        with self.init_scope():
            in_channels = 3
            for block, out_channels in _BLOCKS:
                # The fourth convolutions of VGG19 come last (see below).
                n_convs = 2 if block <= 2 else 3
                for k in range(1, n_convs + 1):
                    setattr(self, 'conv{}_{}'.format(block, k), Convolution2D(
                        in_channels, out_channels, 3, 1, 1, **kwargs))
                    in_channels = out_channels
            self.fc6 = Linear(512 * 7 * 7, 4096, **kwargs)
            self.fc7 = Linear(4096, 4096, **kwargs)
            self.fc8 = Linear(4096, 1000, **kwargs)
            if n_layers == 19:
                self.conv3_4 = Convolution2D(256, 256, 3, 1, 1, **kwargs)
                self.conv4_4 = Convolution2D(512, 512, 3, 1, 1, **kwargs)
                self.conv5_4 = Convolution2D(512, 512, 3, 1, 1, **kwargs)
        self.n_layers = n_layers

        if auto:
            url = _URLS[n_layers]
            _pretrained.load_converted_model(
                self, 'VGG_ILSVRC_{}_layers.npz'.format(n_layers),
                lambda: _cached_download(url),
                VGGLayers.convert_caffemodel_to_npz)
        elif path is not None:
            _pretrained.load_npz(path, self)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Converts a Caffe model of VGG to a ``.npz`` file of Chainer.

        Every layer with parameters is saved under its Caffe name
        (``conv1_1/W``, ``conv1_1/b``, ..., ``fc8/b``), as
        :class:`~chainer.links.caffe.CaffeFunction` reads it; these are the
        names of the links of :class:`VGGLayers`, so the file serves as
        ``pretrained_model``. The same function converts the 16- and the
        19-layer models.

        Args:
            path_caffemodel (str): Path of the ``.caffemodel`` file.
            path_npz (str): Path of the ``.npz`` file to write
                (uncompressed).
        """
        _pretrained.save_npz(
            path_npz, _pretrained.load_caffemodel(path_caffemodel))

    @property
    def functions(self):
        layers = []
        for block, _ in _BLOCKS:
            n_convs = 2 if block <= 2 else (3 if self.n_layers == 16 else 4)
            for k in range(1, n_convs + 1):
                name = 'conv{}_{}'.format(block, k)
                layers.append((name, [getattr(self, name), relu]))
            layers.append(('pool{}'.format(block), [_max_pooling_2d]))
        layers += [
            ('fc6', [self.fc6, relu, dropout]),
            ('fc7', [self.fc7, relu, dropout]),
            ('fc8', [self.fc8]),
            ('prob', [softmax]),
        ]
        return collections.OrderedDict(layers)


class VGG16Layers(VGGLayers):

    """VGG network of 16 layers, pre-trained on ImageNet.

    Its layers are ``conv1_1, conv1_2, pool1, conv2_1, conv2_2, pool2,
    conv3_1, ..., conv3_3, pool3, conv4_1, ..., conv4_3, pool4, conv5_1,
    ..., conv5_3, pool5, fc6, fc7, fc8, prob``; the fully-connected layers
    need 224x224 inputs. See :class:`VGGLayers`.

    Args:
        pretrained_model (str): Path of a ``.npz`` file to load,
            ``'auto'`` or ``None`` (see :class:`VGGLayers`).

    Attributes:
        available_layers (list of str): Names of the layers ``forward`` and
            ``extract`` can return.
    """

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 16)


class VGG19Layers(VGGLayers):

    """VGG network of 19 layers, pre-trained on ImageNet.

    It adds ``conv3_4``, ``conv4_4`` and ``conv5_4`` to the layers of
    :class:`VGG16Layers`. See :class:`VGGLayers`.

    Args:
        pretrained_model (str): Path of a ``.npz`` file to load,
            ``'auto'`` or ``None`` (see :class:`VGGLayers`).

    Attributes:
        available_layers (list of str): Names of the layers ``forward`` and
            ``extract`` can return.
    """

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 19)


def prepare(image, size=(224, 224)):
    """Converts an image to the input array of the VGG models.

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


def _max_pooling_2d(x):
    return max_pooling_2d(x, ksize=2)


def _cached_download(url):
    # chainer.dataset sits above the links: it is reached at call time.
    from chainer.dataset import download
    return download.cached_download(url)
