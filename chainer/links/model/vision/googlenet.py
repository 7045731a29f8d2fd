"""GoogLeNet (Inception-v1) as trained by BVLC."""

import collections

from chainer.functions.activation.relu import relu
from chainer.functions.activation.softmax import softmax
from chainer.functions.noise.dropout import dropout
from chainer.functions.normalization.local_response_normalization import (
    local_response_normalization)
from chainer.functions.pooling.average_pooling_2d import average_pooling_2d
from chainer.functions.pooling.max_pooling_nd import max_pooling_2d
from chainer.initializers import constant
from chainer.initializers import uniform
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.inception import Inception
from chainer.links.connection.linear import Linear
from chainer.links.model.vision import _pretrained


# Whether Pillow, which ``prepare`` needs, can be imported.
available = _pretrained.available
__getattr__ = _pretrained.module_getattr(__name__)


_MEAN = (104.0, 117.0, 123.0)  # BGR

_URL = 'http://dl.caffe.berkeleyvision.org/bvlc_googlenet.caffemodel'

# Links of GoogLeNet and the layers of the Caffe model they come from.
_CAFFE_LAYERS = (
    ('conv1', 'conv1/7x7_s2'),
    ('conv2_reduce', 'conv2/3x3_reduce'),
    ('conv2', 'conv2/3x3'),
    ('loss1_conv', 'loss1/conv'),
    ('loss1_fc1', 'loss1/fc'),
    ('loss1_fc2', 'loss1/classifier'),
    ('loss2_conv', 'loss2/conv'),
    ('loss2_fc1', 'loss2/fc'),
    ('loss2_fc2', 'loss2/classifier'),
    ('loss3_fc', 'loss3/classifier'),
)
# The inception modules (links ``inc3a``, ... and Caffe layers
# ``inception_3a/...``), and their links and Caffe layers.
_INCEPTIONS = ('3a', '3b', '4a', '4b', '4c', '4d', '4e', '5a', '5b')
_INCEPTION_CAFFE_LAYERS = (
    ('conv1', '1x1'),
    ('proj3', '3x3_reduce'),
    ('conv3', '3x3'),
    ('proj5', '5x5_reduce'),
    ('conv5', '5x5'),
    ('projp', 'pool_proj'),
)


class GoogLeNet(_pretrained.PretrainedModel):

    """GoogLeNet (Inception-v1), pre-trained on ImageNet by BVLC.

    The model extracts features (``forward``, ``extract``) or classifies
    images (``predict``) into the 1000 ImageNet classes; images go through
    :func:`prepare` first. It is light and fits large batches when
    fine-tuned; for plain classification, ResNet50 is more accurate.

    The layers are ``conv1, pool1, conv2_reduce, conv2, pool2,
    inception_3a, inception_3b, pool3, inception_4a, ..., inception_4e,
    pool4, inception_5a, inception_5b, pool5, loss3_fc, prob``, then the
    auxiliary classifiers ``loss1_fc2`` (from ``inception_4a``) and
    ``loss2_fc2`` (from ``inception_4d``), computed only when asked for.

    See: `the BVLC model
    <https://github.com/BVLC/caffe/tree/master/models/bvlc_googlenet>`_ and
    Szegedy et al., `Going Deeper with Convolutions
    <https://arxiv.org/abs/1409.4842>`_.

    Args:
        pretrained_model (str): Path of a ``.npz`` file of the pre-trained
            model to load. ``'auto'`` loads ``bvlc_googlenet.npz`` from
            ``$CHAINER_DATASET_ROOT/pfnet/chainer/models/``; on the first
            use, that file is made from the Caffe model of BVLC,
            downloaded (see :func:`chainer.dataset.cached_download`) and
            converted by :meth:`convert_caffemodel_to_npz`. ``None``
            initializes the weights
            as BVLC did, from ``LeCunUniform(scale=1.0)`` (Caffe's
            ``xavier`` filler).

    Attributes:
        available_layers (list of str): Names of the layers ``forward`` and
            ``extract`` can return.
    """

    _mean = _MEAN
    _retired_mode_arg = 'train'
    _branch_sources = {'loss1_fc2': 'inception_4a',
                       'loss2_fc2': 'inception_4d'}

    def __init__(self, pretrained_model='auto'):
        super().__init__()
        auto = pretrained_model == 'auto'
        path = None if auto else _pretrained.pretrained_path(pretrained_model)
        if pretrained_model:
            # The weights are overwritten: zeros are cheaper than sampling.
            kwargs = {'initialW': constant.Zero()}
        else:
            kwargs = {'initialW': uniform.LeCunUniform(scale=1.0)}

        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, stride=2, pad=3, **kwargs)
            self.conv2_reduce = Convolution2D(64, 64, 1, **kwargs)
            self.conv2 = Convolution2D(64, 192, 3, stride=1, pad=1, **kwargs)
            self.inc3a = Inception(192, 64, 96, 128, 16, 32, 32)
            self.inc3b = Inception(256, 128, 128, 192, 32, 96, 64)
            self.inc4a = Inception(480, 192, 96, 208, 16, 48, 64)
            self.inc4b = Inception(512, 160, 112, 224, 24, 64, 64)
            self.inc4c = Inception(512, 128, 128, 256, 24, 64, 64)
            self.inc4d = Inception(512, 112, 144, 288, 32, 64, 64)
            self.inc4e = Inception(528, 256, 160, 320, 32, 128, 128)
            self.inc5a = Inception(832, 256, 160, 320, 32, 128, 128)
            self.inc5b = Inception(832, 384, 192, 384, 48, 128, 128)
            self.loss3_fc = Linear(1024, 1000, **kwargs)

            self.loss1_conv = Convolution2D(512, 128, 1, **kwargs)
            self.loss1_fc1 = Linear(2048, 1024, **kwargs)
            self.loss1_fc2 = Linear(1024, 1000, **kwargs)

            self.loss2_conv = Convolution2D(528, 128, 1, **kwargs)
            self.loss2_fc1 = Linear(2048, 1024, **kwargs)
            self.loss2_fc2 = Linear(1024, 1000, **kwargs)

        if auto:
            _pretrained.load_converted_model(
                self, 'bvlc_googlenet.npz', _download_caffemodel,
                GoogLeNet.convert_caffemodel_to_npz)
        elif path is not None:
            _pretrained.load_npz(path, self)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Converts BVLC's Caffe model of GoogLeNet to a ``.npz`` file.

        The weights and biases of the Caffe layers are copied to the links
        of a new model of this class: ``conv1/7x7_s2`` to ``conv1``,
        ``conv2/3x3_reduce`` and ``conv2/3x3`` to ``conv2_reduce`` and
        ``conv2``, ``loss3/classifier`` to ``loss3_fc``; for the auxiliary
        classifiers, ``loss1/conv``, ``loss1/fc`` and ``loss1/classifier``
        to ``loss1_conv``, ``loss1_fc1`` and ``loss1_fc2`` (and the same
        for ``loss2``); and in each inception module, say
        ``inception_3a`` (the link ``inc3a``), ``1x1``, ``3x3_reduce``,
        ``3x3``, ``5x5_reduce``, ``5x5`` and ``pool_proj`` to ``conv1``,
        ``proj3``, ``conv3``, ``proj5``, ``conv5`` and ``projp``.

        Args:
            path_caffemodel (str): Path of the ``.caffemodel`` file.
            path_npz (str): Path of the ``.npz`` file to write
                (uncompressed).
        """
        caffemodel = _pretrained.load_caffemodel(path_caffemodel)
        model = cls(pretrained_model=None)
        for link_name, caffe_name in _CAFFE_LAYERS:
            _pretrained.copy_link_params(
                getattr(model, link_name), caffemodel[caffe_name])
        for name in _INCEPTIONS:
            inception = getattr(model, 'inc' + name)
            for link_name, caffe_name in _INCEPTION_CAFFE_LAYERS:
                _pretrained.copy_link_params(
                    getattr(inception, link_name),
                    caffemodel['inception_{}/{}'.format(name, caffe_name)])
        _pretrained.save_npz(path_npz, model)

    @property
    def functions(self):
        return collections.OrderedDict([
            ('conv1', [self.conv1, relu]),
            ('pool1', [_max_pooling_2d, _local_response_normalization]),
            ('conv2_reduce', [self.conv2_reduce, relu]),
            ('conv2', [self.conv2, relu, _local_response_normalization]),
            ('pool2', [_max_pooling_2d]),
            ('inception_3a', [self.inc3a]),
            ('inception_3b', [self.inc3b]),
            ('pool3', [_max_pooling_2d]),
            ('inception_4a', [self.inc4a]),
            ('inception_4b', [self.inc4b]),
            ('inception_4c', [self.inc4c]),
            ('inception_4d', [self.inc4d]),
            ('inception_4e', [self.inc4e]),
            ('pool4', [_max_pooling_2d]),
            ('inception_5a', [self.inc5a]),
            ('inception_5b', [self.inc5b]),
            ('pool5', [_average_pooling_2d_k7]),
            ('loss3_fc', [_dropout, self.loss3_fc]),
            ('prob', [softmax]),
            # The auxiliary classifiers come last so that the usual
            # requests stop before them.
            ('loss1_fc2', [_average_pooling_2d_k5, self.loss1_conv, relu,
                           self.loss1_fc1, relu, self.loss1_fc2]),
            ('loss2_fc2', [_average_pooling_2d_k5, self.loss2_conv, relu,
                           self.loss2_fc1, relu, self.loss2_fc2]),
        ])


def prepare(image, size=(224, 224)):
    """Converts an image to the input array of GoogLeNet.

    It takes the arguments of :func:`chainer.links.model.vision.vgg.prepare`
    and converts the image as it does, but subtracts the mean of each
    channel of the images that GoogLeNet was trained on,
    ``(104, 117, 123)`` in BGR order.

    Returns:
        numpy.ndarray: Array of shape ``(3, H, W)``.
    """
    return _pretrained.prepare_image(image, size, _MEAN)


def _download_caffemodel():
    # chainer.dataset sits above the links: it is reached at call time.
    from chainer.dataset import download
    return download.cached_download(_URL)


def _max_pooling_2d(x):
    return max_pooling_2d(x, ksize=3, stride=2)


def _local_response_normalization(x):
    return local_response_normalization(x, n=5, k=1, alpha=1e-4 / 5)


def _average_pooling_2d_k5(x):
    return average_pooling_2d(x, ksize=5, stride=3)


def _average_pooling_2d_k7(x):
    return average_pooling_2d(x, ksize=7, stride=1)


def _dropout(x):
    return dropout(x, ratio=0.4)
