import os
import types

import numpy
import pytest

import chainer
from chainer.dataset import download
from chainer import initializers
from chainer.links.model.vision import vgg


LAYERS_16 = [
    'conv1_1', 'conv1_2', 'pool1', 'conv2_1', 'conv2_2', 'pool2',
    'conv3_1', 'conv3_2', 'conv3_3', 'pool3', 'conv4_1', 'conv4_2',
    'conv4_3', 'pool4', 'conv5_1', 'conv5_2', 'conv5_3', 'pool5',
    'fc6', 'fc7', 'fc8', 'prob']
LAYERS_19 = (LAYERS_16[:9] + ['conv3_4'] + LAYERS_16[9:13] + ['conv4_4']
             + LAYERS_16[13:17] + ['conv5_4'] + LAYERS_16[17:])


def _conv_shapes(layers, size):
    # Output shapes of the convolutional layers for one image.
    shapes = {}
    channels = {1: 64, 2: 128, 3: 256, 4: 512, 5: 512}
    for name in layers:
        if name.startswith('conv'):
            shapes[name] = (1, channels[int(name[4])], size, size)
        elif name.startswith('pool'):
            size //= 2
            shapes[name] = (1, channels[int(name[4])], size, size)
    return shapes


@pytest.fixture(scope='module')
def model():
    # Drawing the 138 million random weights takes seconds; these tests
    # only need a working model, so its weights are a constant here (the
    # random initialization is tested on its own, as a slow test).
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vgg, 'normal', types.SimpleNamespace(
            Normal=lambda scale: initializers.Constant(scale)))
        return vgg.VGG16Layers(pretrained_model=None)


def _input(size):
    return numpy.random.RandomState(0).uniform(
        -50, 50, (1, 3, size, size)).astype(numpy.float32)


def test_available_layers(model):
    assert model.available_layers == LAYERS_16


class _LinkNames:

    # Stands for a built model: its links are their names.

    def __init__(self, n_layers):
        self.n_layers = n_layers

    def __getattr__(self, name):
        return name


@pytest.mark.parametrize('n_layers,layers', [(16, LAYERS_16),
                                             (19, LAYERS_19)])
def test_functions(n_layers, layers):
    functions = vgg.VGGLayers.functions.fget(_LinkNames(n_layers))
    assert list(functions) == layers
    for name, funcs in functions.items():
        if name.startswith(('conv', 'fc')):
            assert funcs[0] == name


def test_params(model):
    names = sorted(name for name, _ in model.namedparams())
    assert len(names) == 32
    assert names[:4] == ['/conv1_1/W', '/conv1_1/b', '/conv1_2/W',
                         '/conv1_2/b']
    assert model.conv1_1.W.shape == (64, 3, 3, 3)
    assert model.conv5_3.W.shape == (512, 512, 3, 3)
    assert model.fc6.W.shape == (4096, 25088)
    assert model.fc8.W.shape == (1000, 4096)
    assert model.count_params() == 138357544


@pytest.mark.slow
def test_random_initialization():
    model = vgg.VGG16Layers(pretrained_model=None)
    W = model.conv3_1.W.array
    assert abs(W.std() - 0.01) < 0.0005
    assert abs(W.mean()) < 0.0005
    numpy.testing.assert_array_equal(model.fc7.b.array, 0)


def test_forward_shapes(model):
    layers = LAYERS_16[:18]
    with chainer.using_config('train', False):
        out = model(_input(32), layers=layers)
    assert {k: v.shape for k, v in out.items()} == _conv_shapes(layers, 32)


def test_extract(model):
    images = [numpy.zeros((40, 30, 3), numpy.uint8)]
    with chainer.using_config('train', False):
        out = model.extract(images, layers=['conv2_1', 'pool5'],
                            size=(32, 32))
    assert sorted(out) == ['conv2_1', 'pool5']
    assert out['pool5'].shape == (1, 512, 1, 1)


def test_retired_argument(model):
    with pytest.raises(ValueError, match='test argument'):
        model(_input(32), layers=['conv1_1'], test=True)


def test_invalid_n_layers():
    with pytest.raises(ValueError, match='either 16 or 19, but 18'):
        vgg.VGGLayers(None, 18)


URLS = {
    16: 'https://www.robots.ox.ac.uk/%7Evgg/software/very_deep/caffe/'
        'VGG_ILSVRC_16_layers.caffemodel',
    19: 'http://www.robots.ox.ac.uk/%7Evgg/software/very_deep/caffe/'
        'VGG_ILSVRC_19_layers.caffemodel',
}


def _vgg_caffemodel(caffe_model, n_layers, reduced):
    # The layers of the VGG team's Caffe model, with random weights.
    net = caffe_model(reduced=reduced)
    in_channels = 3
    for block, out_channels in ((1, 64), (2, 128), (3, 256), (4, 512),
                                (5, 512)):
        n_convs = 2 if block <= 2 else (3 if n_layers == 16 else 4)
        for k in range(1, n_convs + 1):
            net.convolution('conv{}_{}'.format(block, k), out_channels,
                            in_channels, 3)
            net.relu('relu{}_{}'.format(block, k))
            in_channels = out_channels
        net.pooling('pool{}'.format(block))
    net.inner_product('fc6', 4096, 512 * 7 * 7)
    net.relu('relu6')
    net.inner_product('fc7', 4096, 4096)
    net.relu('relu7')
    net.inner_product('fc8', 1000, 4096)
    return net


def _assert_params_are_blobs(model, blobs):
    # Each parameter is the blob of the Caffe layer of the same name.
    # (numpy.testing is slow on the 138 million values.)
    params = dict(model.namedparams())
    assert len(params) == 2 * len(blobs)
    for name, (W, b) in blobs.items():
        for param, blob in ((params['/{}/W'.format(name)], W),
                            (params['/{}/b'.format(name)], b)):
            assert blob.shape == param.shape, name
            assert (param.array == blob).all(), name


def _assert_npz_holds_blobs(path, blobs):
    with numpy.load(path) as npz:
        assert sorted(npz.files) == sorted(
            '{}/{}'.format(name, p) for name in blobs for p in 'Wb')
        for name, (W, b) in blobs.items():
            numpy.testing.assert_array_equal(npz[name + '/W'], W)
            numpy.testing.assert_array_equal(npz[name + '/b'], b)


# A reduced Caffe model's blobs only broadcast to the links' parameters:
# the converted file is refused when loaded, naming the first parameter.
_REDUCED_REFUSED = r"'conv1_1/W'.*shape \(64, 1, 1, 1\).*\(64, 3, 3, 3\)"


@pytest.mark.parametrize('n_layers', [16, 19])
def test_convert_caffemodel_to_npz(caffe_model, tmp_path, n_layers):
    net = _vgg_caffemodel(caffe_model, n_layers, reduced=True)
    path = net.save(tmp_path / 'vgg.caffemodel')
    cls = {16: vgg.VGG16Layers, 19: vgg.VGG19Layers}[n_layers]
    cls.convert_caffemodel_to_npz(path, str(tmp_path / 'vgg.npz'))
    _assert_npz_holds_blobs(str(tmp_path / 'vgg.npz'), net.blobs)
    assert len(net.blobs) == n_layers


def test_pretrained_auto(caffe_model, models_root, download_cache, capsys):
    # The Caffe model is in the download cache: the model converts it and
    # loads the converted file, which is kept in the dataset root only when
    # that load succeeds (the full-size models are the slow tests below).
    net = _vgg_caffemodel(caffe_model, 16, reduced=True)
    net.save(download_cache(URLS[16]))
    with pytest.raises(ValueError, match=_REDUCED_REFUSED):
        vgg.VGG16Layers()
    assert 'Now loading caffemodel' in capsys.readouterr().err
    assert not os.path.exists(
        os.path.join(models_root, 'VGG_ILSVRC_16_layers.npz'))


@pytest.mark.parametrize('cls,n_layers', [(vgg.VGG16Layers, 16),
                                          (vgg.VGG19Layers, 19)])
def test_pretrained_auto_download_fails(models_root, monkeypatch, cls,
                                        n_layers):
    urls = []

    def cached_download(url):
        urls.append(url)
        raise OSError('offline')

    monkeypatch.setattr(download, 'cached_download', cached_download)
    with pytest.raises(OSError, match='offline'):
        cls()
    assert urls == [URLS[n_layers]]
    assert not [name for name in os.listdir(models_root)
                if not name.endswith('.lock')]


def test_pretrained_model_file(caffe_model, tmp_path):
    net = _vgg_caffemodel(caffe_model, 16, reduced=True)
    path = str(tmp_path / 'vgg.npz')
    vgg.VGGLayers.convert_caffemodel_to_npz(
        net.save(tmp_path / 'vgg.caffemodel'), path)
    _assert_npz_holds_blobs(path, net.blobs)
    with pytest.raises(ValueError, match=_REDUCED_REFUSED):
        vgg.VGG16Layers(pretrained_model=path)
    with pytest.raises(FileNotFoundError, match='none.npz'):
        vgg.VGG16Layers(pretrained_model=str(tmp_path / 'none.npz'))


@pytest.mark.slow
@pytest.mark.parametrize('n_layers', [16, 19])
def test_convert_full_size_caffemodel(caffe_model, models_root,
                                      download_cache, n_layers):
    net = _vgg_caffemodel(caffe_model, n_layers, reduced=False)
    net.save(download_cache(URLS[n_layers]))
    cls = {16: vgg.VGG16Layers, 19: vgg.VGG19Layers}[n_layers]
    model = cls()
    _assert_params_are_blobs(model, net.blobs)
    assert all(param.shape == net.blobs[name.split('/')[1]][
        0 if name.endswith('W') else 1].shape
        for name, param in model.namedparams())


@pytest.mark.slow
def test_forward_full_size(model):
    with chainer.using_config('train', False):
        out = model(_input(224), layers=LAYERS_16)
    expected = _conv_shapes(LAYERS_16, 224)
    expected.update({'fc6': (1, 4096), 'fc7': (1, 4096), 'fc8': (1, 1000),
                     'prob': (1, 1000)})
    assert {k: v.shape for k, v in out.items()} == expected
    numpy.testing.assert_allclose(out['prob'].array.sum(), 1, rtol=1e-5)


@pytest.mark.slow
def test_extract_default_layer(model):
    with chainer.using_config('train', False):
        out = model.extract([numpy.zeros((30, 40, 3), numpy.uint8)])
    assert list(out) == ['fc7']
    assert out['fc7'].shape == (1, 4096)


@pytest.mark.slow
def test_vgg19():
    model = vgg.VGG19Layers(pretrained_model=None)
    assert model.available_layers == LAYERS_19
    assert model.count_params() == 143667240
    layers = LAYERS_19[:21]
    with chainer.using_config('train', False):
        out = model(_input(32), layers=layers)
    assert {k: v.shape for k, v in out.items()} == _conv_shapes(layers, 32)


# Layouts of saved files, initial parameters, layer outputs and the
# preprocessing, against the numbers of Chainer 7.8.1 (see conftest.py).
@pytest.mark.parametrize('name', [
    'prepare/vgg',
])
def test_matches_chainer_7_8(name, matches_chainer_7_8):
    matches_chainer_7_8(name)


@pytest.mark.slow
@pytest.mark.parametrize('name', [
    'VGG16/layout',
    'VGG16/init',
    'VGG16/forward',
    'VGG19/layout',
    'VGG19/init',
    'VGG19/forward',
    'VGG16/forward224',
])
def test_matches_chainer_7_8_slow(name, matches_chainer_7_8):
    matches_chainer_7_8(name)
