"""Caffe models shaped like the pre-trained ones, built for the tests."""

import hashlib
import json
import os

import numpy
import pytest

import chainer
from chainer.dataset import download
from chainer.links.model.vision import googlenet
from chainer.links.model.vision import resnet
from chainer.links.model.vision import vgg

try:
    from chainer.links.caffe.protobuf3 import caffe_pb2
except ImportError:
    caffe_pb2 = None


def _varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7f
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


class CaffeModel:

    """A ``NetParameter`` of Caffe layers with random blobs.

    ``blobs`` keeps the arrays of each layer, by layer name. With
    ``reduced=True``, the weights of convolutions have one input channel
    and a 1x1 kernel and those of inner products one input: the blobs are
    small, for tests of the conversion; a model file made of them is
    refused by the links, whose parameters have the real shapes.
    """

    def __init__(self, reduced=False, seed=0):
        self.net = caffe_pb2.NetParameter()
        self.net.name = 'test'
        self.blobs = {}
        self.reduced = reduced
        self._rng = numpy.random.default_rng(seed)
        self._last_top = 'data'

    def _random(self, shape):
        return self._rng.standard_normal(shape, dtype=numpy.float32)

    def _layer(self, name, type_name, arrays, bottom=None, top=None):
        layer = self.net.layer.add()
        layer.name = name
        layer.type = type_name
        layer.bottom.append(bottom or self._last_top)
        layer.top.append(top or name)
        self._last_top = top or name
        for array in arrays:
            blob = layer.blobs.add()
            blob.shape.dim.extend(array.shape)
            # The data as a packed field: far faster than extending it.
            data = numpy.ascontiguousarray(array, '<f4').tobytes()
            blob.MergeFromString(b'\x2a' + _varint(len(data)) + data)
        if arrays:
            self.blobs[name] = arrays
        return layer

    def convolution(self, name, out_channels, in_channels, ksize, bias=True,
                    **kwargs):
        if self.reduced:
            in_channels, ksize = 1, 1
        arrays = [self._random((out_channels, in_channels, ksize, ksize))]
        if bias:
            arrays.append(self._random((out_channels,)))
        layer = self._layer(name, 'Convolution', arrays, **kwargs)
        param = layer.convolution_param
        param.num_output = out_channels
        param.kernel_size.append(ksize)
        param.bias_term = bias
        return layer

    def inner_product(self, name, out_size, in_size, **kwargs):
        if self.reduced:
            in_size = 1
        arrays = [self._random((out_size, in_size)),
                  self._random((out_size,))]
        layer = self._layer(name, 'InnerProduct', arrays, **kwargs)
        layer.inner_product_param.num_output = out_size
        return layer

    def batch_norm(self, name, channels, factor=2.0):
        # Caffe stores the running sums and their scale factor.
        mean = self._random((channels,))
        var = self._rng.uniform(0.5, 2, channels).astype(numpy.float32)
        arrays = [mean, var, numpy.array([factor], numpy.float32)]
        layer = self._layer(name, 'BatchNorm', arrays,
                            bottom=self._last_top, top=self._last_top)
        layer.batch_norm_param.use_global_stats = True
        return layer

    def scale(self, name, channels):
        arrays = [self._random((channels,)), self._random((channels,))]
        layer = self._layer(name, 'Scale', arrays,
                            bottom=self._last_top, top=self._last_top)
        layer.scale_param.bias_term = True
        return layer

    def relu(self, name):
        return self._layer(name, 'ReLU', [], bottom=self._last_top,
                           top=self._last_top)

    def pooling(self, name, ksize=2, stride=2):
        layer = self._layer(name, 'Pooling', [])
        layer.pooling_param.pool = caffe_pb2.PoolingParameter.MAX
        layer.pooling_param.kernel_size = ksize
        layer.pooling_param.stride = stride
        return layer

    def save(self, path):
        os.makedirs(os.path.dirname(str(path)) or '.', exist_ok=True)
        with open(str(path), 'wb') as f:
            f.write(self.net.SerializeToString())
        return str(path)


@pytest.fixture(scope='session')
def caffe_model():
    """Makes a :class:`CaffeModel`; skips without protobuf."""
    if caffe_pb2 is None:
        pytest.skip('needs protobuf')
    return CaffeModel


@pytest.fixture
def models_root(tmp_path):
    """Points the dataset root to an empty folder; yields the folder of
    the pre-trained models in it."""
    root = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path / 'root'))
    try:
        yield download.get_dataset_directory('pfnet/chainer/models/')
    finally:
        download.set_dataset_root(root)


def cached_download_path(url):
    """Where :func:`chainer.dataset.cached_download` keeps ``url``; its
    folder is created."""
    cache = os.path.join(download.get_dataset_root(), '_dl_cache')
    os.makedirs(cache, exist_ok=True)
    return os.path.join(cache, hashlib.md5(url.encode('utf-8')).hexdigest())


@pytest.fixture
def download_cache():
    """Returns where the download of a URL is cached (computed as
    Chainer 7.8 does: the MD5 hash of the URL)."""
    return cached_download_path

# ----------------------------------------------------------------------
# Numbers recorded from Chainer 7.8.1, and the cases that reproduce them.
#
# For each model, the fixture ``fixtures/vision_reference.json`` holds what
# Chainer 7.8.1 gave running the case functions below:
#
# - ``layout``: a digest of the keys and shapes a saved file holds (the
#   parameters and the persistent values), and their count;
# - ``init``: statistics of the parameters drawn with ``pretrained_model=None``
#   after ``numpy.random.seed(0)`` (the same draws in the same order);
# - ``forward``: statistics of every layer's output in test mode, with the
#   parameters filled by a fixed pattern, on a fixed input;
# - ``prepare``: statistics of the preprocessed fixed image.

_REFERENCE = os.path.join(
    os.path.dirname(__file__), 'fixtures', 'vision_reference.json')


class _KeyCollector(chainer.serializer.Serializer):

    # Records the key and shape of each value a link serializes.

    def __init__(self, keys, prefix=''):
        self.keys = keys
        self.prefix = prefix

    def __getitem__(self, key):
        return _KeyCollector(self.keys, self.prefix + key + '/')

    def __call__(self, key, value):
        self.keys.append('%s%s %s' % (
            self.prefix, key, list(numpy.shape(value))))
        return value


def _layout(model):
    keys = []
    model.serialize(_KeyCollector(keys))
    text = '\n'.join(sorted(keys))
    return {'count': [len(keys)],
            'sha256': hashlib.sha256(text.encode()).hexdigest()}


def _stats(array):
    a = numpy.asarray(array, dtype=numpy.float64).ravel()
    return [float(a.sum()), float((a * a).sum())] + a[:3].tolist()


def _init_stats(model):
    arrays = [p.array for _, p in sorted(model.namedparams())]
    return {'sum': [sum(float(a.sum(dtype=numpy.float64)) for a in arrays)],
            'abs_sum': [sum(float(numpy.abs(a).sum(dtype=numpy.float64))
                            for a in arrays)],
            'first': [float(arrays[0].ravel()[0]),
                      float(arrays[-1].ravel()[-1])]}


def _fill(model):
    # A fixed pattern, of the size of LeCun's initialization for weights.
    for k, (name, param) in enumerate(sorted(model.namedparams())):
        shape = param.shape
        wave = numpy.sin(numpy.arange(param.size) * 0.7 + k).reshape(shape)
        if len(shape) >= 2:
            scale = 1 / numpy.sqrt(numpy.prod(shape[1:]))
            param.array[...] = wave * scale
        elif name.endswith('/gamma'):
            param.array[...] = 1 + 0.1 * wave
        else:
            param.array[...] = 0.1 * wave


def _image(size):
    # ``size`` is (width, height); an RGB uint8 image of that size.
    w, h = size
    return numpy.random.RandomState(0).randint(
        0, 256, (h, w, 3)).astype(numpy.uint8)


def _forward_stats(model, size, layers=None):
    _fill(model)
    n = 3 * size * size
    x = numpy.cos(numpy.arange(n) * 0.01).reshape(
        1, 3, size, size).astype(numpy.float32) * 50
    with chainer.using_config('train', False), \
            chainer.using_config('enable_backprop', False):
        outs = model(x, layers=layers or model.available_layers)
    return {key: [list(out.shape)] + _stats(out.array)
            for key, out in outs.items()}


_MAKERS = {
    'GoogLeNet': lambda: googlenet.GoogLeNet(pretrained_model=None),
    'ResNet50': lambda: resnet.ResNet50Layers(pretrained_model=None),
    'ResNet50fb': lambda: resnet.ResNet50Layers(
        pretrained_model=None, downsample_fb=True),
    'ResNet101': lambda: resnet.ResNet101Layers(pretrained_model=None),
    'ResNet152': lambda: resnet.ResNet152Layers(pretrained_model=None),
    'VGG16': lambda: vgg.VGG16Layers(pretrained_model=None),
    'VGG19': lambda: vgg.VGG19Layers(pretrained_model=None),
}
_built = {}


def _model(name):
    """The model, built once after ``numpy.random.seed(0)``, and the
    statistics of its initial parameters.

    The forward cases overwrite every parameter with the same pattern, so
    they can share the model.
    """
    if name not in _built:
        numpy.random.seed(0)
        model = _MAKERS[name]()
        _built[name] = model, _init_stats(model)
    return _built[name]


def _model_cases(name, size, layers=None):
    return {
        name + '/layout': lambda: _layout(_model(name)[0]),
        name + '/init': lambda: _model(name)[1],
        name + '/forward': lambda: _forward_stats(
            _model(name)[0], size, layers),
    }


def _prepare_case(module):
    def case():
        image = _image((37, 29))
        return {
            'resized': _stats(module.prepare(image, size=(16, 20))),
            'kept': _stats(module.prepare(image, size=None)),
            'chw': _stats(module.prepare(image.transpose(2, 0, 1),
                                         size=(8, 8))),
            'gray': _stats(module.prepare(image[:, :, 0], size=(8, 8))),
        }
    return case


def _predict_case(images, oversample):
    def case():
        model = _model('GoogLeNet')[0]
        _fill(model)
        y = model.predict(images(), oversample=oversample).array
        return {'prob': [list(y.shape)] + _stats(y),
                'argmax': y.argmax(axis=1).tolist()}
    return case


_GOOGLENET_CONV = ['conv1', 'pool1', 'conv2', 'pool2', 'inception_3b',
                   'inception_4a', 'inception_4e', 'inception_5b']
_VGG16_CONV = ['conv1_1', 'pool1', 'conv3_3', 'pool3', 'conv5_3', 'pool5']
_VGG19_CONV = _VGG16_CONV[:3] + ['conv3_4', 'pool3', 'conv4_4', 'conv5_4',
                                 'pool5']

FAST = {}
FAST.update(_model_cases('GoogLeNet', 64, _GOOGLENET_CONV))
FAST.update(_model_cases('ResNet50', 40))
FAST['prepare/vgg'] = _prepare_case(vgg)
FAST['prepare/resnet'] = _prepare_case(resnet)
FAST['prepare/googlenet'] = _prepare_case(googlenet)
FAST['GoogLeNet/predict'] = _predict_case(
    lambda: [_image((300, 260))], oversample=False)

SLOW = {}
SLOW['GoogLeNet/forward224'] = lambda: _forward_stats(
    _model('GoogLeNet')[0], 224)
SLOW['GoogLeNet/predict_oversample'] = _predict_case(
    lambda: [_image((300, 260)), _image((256, 256))[::-1]], oversample=True)
SLOW.update(_model_cases('ResNet50fb', 40))
SLOW.update(_model_cases('ResNet101', 40))
SLOW.update(_model_cases('ResNet152', 40))
SLOW.update(_model_cases('VGG16', 32, _VGG16_CONV))
SLOW.update(_model_cases('VGG19', 32, _VGG19_CONV))
SLOW['VGG16/forward224'] = lambda: _forward_stats(_model('VGG16')[0], 224)

CASES = dict(FAST, **SLOW)

# With the fixed pattern, the rows of VGG's fc8 weight are nearly orthogonal
# to its input: its outputs are small differences of large sums, where the
# float32 rounding of the input (1e-5 relative) grows to 1e-3.
_LOOSE = {('VGG16/forward224', 'fc8'), ('VGG16/forward224', 'prob')}


def _check(name, reference):
    expected = reference[name]
    actual = CASES[name]()
    assert sorted(actual) == sorted(expected)
    for key, values in expected.items():
        if isinstance(values, str):
            assert actual[key] == values, key
        elif isinstance(values[0], list):
            # A layer: its shape, then statistics of its values.
            assert actual[key][0] == values[0], key
            rtol = 5e-3 if (name, key) in _LOOSE else 1e-4
            numpy.testing.assert_allclose(
                actual[key][1:], values[1:], rtol=rtol, atol=1e-5,
                err_msg=key)
        else:
            numpy.testing.assert_allclose(
                actual[key], values, rtol=1e-5, atol=1e-6, err_msg=key)


@pytest.fixture(scope='session')
def matches_chainer_7_8():
    """Checks one named case against the numbers of Chainer 7.8.1."""
    with open(_REFERENCE) as f:
        reference = json.load(f)
    return lambda name: _check(name, reference)
