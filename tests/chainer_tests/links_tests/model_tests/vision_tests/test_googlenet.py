import os
import shutil

import numpy
import pytest

import chainer
from chainer.dataset import download
from chainer.links.model.vision import googlenet
from chainer import serializers


LAYERS = [
    'conv1', 'pool1', 'conv2_reduce', 'conv2', 'pool2', 'inception_3a',
    'inception_3b', 'pool3', 'inception_4a', 'inception_4b', 'inception_4c',
    'inception_4d', 'inception_4e', 'pool4', 'inception_5a', 'inception_5b',
    'pool5', 'loss3_fc', 'prob', 'loss1_fc2', 'loss2_fc2']

# Output shapes for one 64x64 image, up to the last convolutional layer.
SHAPES_64 = {
    'conv1': (1, 64, 32, 32), 'pool1': (1, 64, 16, 16),
    'conv2_reduce': (1, 64, 16, 16), 'conv2': (1, 192, 16, 16),
    'pool2': (1, 192, 8, 8), 'inception_3a': (1, 256, 8, 8),
    'inception_3b': (1, 480, 8, 8), 'pool3': (1, 480, 4, 4),
    'inception_4a': (1, 512, 4, 4), 'inception_4b': (1, 512, 4, 4),
    'inception_4c': (1, 512, 4, 4), 'inception_4d': (1, 528, 4, 4),
    'inception_4e': (1, 832, 4, 4), 'pool4': (1, 832, 2, 2),
    'inception_5a': (1, 832, 2, 2), 'inception_5b': (1, 1024, 2, 2),
}


@pytest.fixture(scope='module')
def model():
    numpy.random.seed(0)
    return googlenet.GoogLeNet(pretrained_model=None)


def _input(size, n=1):
    return numpy.random.RandomState(0).uniform(
        -50, 50, (n, 3, size, size)).astype(numpy.float32)


def test_available_layers(model):
    assert model.available_layers == LAYERS
    assert list(model.functions) == LAYERS


def test_children(model):
    assert sorted(name for name, _ in model.namedlinks(skipself=True)
                  if name.count('/') == 1) == sorted(
        ['/conv1', '/conv2_reduce', '/conv2', '/inc3a', '/inc3b', '/inc4a',
         '/inc4b', '/inc4c', '/inc4d', '/inc4e', '/inc5a', '/inc5b',
         '/loss1_conv', '/loss1_fc1', '/loss1_fc2', '/loss2_conv',
         '/loss2_fc1', '/loss2_fc2', '/loss3_fc'])
    assert model.conv1.W.shape == (64, 3, 7, 7)
    assert model.loss1_fc1.W.shape == (1024, 2048)
    assert model.loss3_fc.W.shape == (1000, 1024)
    assert model.count_params() == 13378280


def test_random_initialization(model):
    # LeCunUniform(scale=1): uniform in [-s, s] with s = sqrt(3 / fan_in).
    limit = numpy.sqrt(3 / (3 * 7 * 7))
    W = model.conv1.W.array
    assert numpy.abs(W).max() <= limit
    assert numpy.abs(W).max() > 0.9 * limit
    numpy.testing.assert_array_equal(model.conv1.b.array, 0)


def test_forward_shapes(model):
    with chainer.using_config('train', False):
        out = model(_input(64), layers=list(SHAPES_64))
    assert {k: v.shape for k, v in out.items()} == SHAPES_64


def test_forward_returns_only_requested(model):
    out = model(_input(64), layers=['pool1', 'conv1'])
    assert sorted(out) == ['conv1', 'pool1']


@pytest.mark.parametrize('name', ['train', 'test'])
def test_forward_retired_arguments(model, name):
    error = ValueError if name == 'train' else TypeError
    with pytest.raises(error):
        model(_input(64), layers=['conv1'], **{name: False})


def test_extract(model):
    images = [numpy.random.RandomState(k).randint(0, 256, (50, 40, 3))
              .astype(numpy.uint8) for k in range(2)]
    with chainer.using_config('train', False):
        out = model.extract(images, layers=['pool2'], size=(64, 64))
        x = numpy.stack([googlenet.prepare(im, (64, 64)) for im in images])
        expected = model(x, layers=['pool2'])['pool2']
    assert out['pool2'].shape == (2, 192, 8, 8)
    numpy.testing.assert_allclose(out['pool2'].array, expected.array)


@pytest.mark.slow
def test_forward_full_size(model):
    with chainer.using_config('train', False):
        out = model(_input(224), layers=LAYERS)
        default = model(_input(224))
    assert list(default) == ['prob']
    numpy.testing.assert_array_equal(default['prob'].array,
                                     out['prob'].array)
    assert out['pool5'].shape == (1, 1024, 1, 1)
    for name in ('loss3_fc', 'prob', 'loss1_fc2', 'loss2_fc2'):
        assert out[name].shape == (1, 1000)
    numpy.testing.assert_allclose(out['prob'].array.sum(), 1, rtol=1e-5)


@pytest.mark.slow
def test_predict(model):
    image = numpy.random.RandomState(0).randint(
        0, 256, (3, 300, 280)).astype(numpy.uint8)
    for oversample in (True, False):
        y = model.predict([image], oversample=oversample)
        assert y.shape == (1, 1000)
        assert y.creator is None
        numpy.testing.assert_allclose(y.array.sum(), 1, rtol=1e-5)


def test_pretrained_model_files(model, models_root):
    # 'auto' reads the converted model already in the dataset root.
    path = os.path.join(models_root, 'bvlc_googlenet.npz')
    serializers.save_npz(path, model, compression=False)
    loaded = {'auto': googlenet.GoogLeNet(),
              'path': googlenet.GoogLeNet(pretrained_model=path)}
    expected = dict(model.namedparams())
    for how, other in loaded.items():
        for name, param in other.namedparams():
            numpy.testing.assert_array_equal(
                param.array, expected[name].array, err_msg=how)


URL = 'http://dl.caffe.berkeleyvision.org/bvlc_googlenet.caffemodel'

# Caffe layers of the inception modules and the links they go to, with
# the input channels and the output channels of each branch (1x1, 3x3
# reduce, 3x3, 5x5 reduce, 5x5, pool projection) of each module.
INCEPTIONS = {
    '3a': (192, 64, 96, 128, 16, 32, 32),
    '3b': (256, 128, 128, 192, 32, 96, 64),
    '4a': (480, 192, 96, 208, 16, 48, 64),
    '4b': (512, 160, 112, 224, 24, 64, 64),
    '4c': (512, 128, 128, 256, 24, 64, 64),
    '4d': (512, 112, 144, 288, 32, 64, 64),
    '4e': (528, 256, 160, 320, 32, 128, 128),
    '5a': (832, 256, 160, 320, 32, 128, 128),
    '5b': (832, 384, 192, 384, 48, 128, 128),
}


def _googlenet_caffemodel(caffe_model):
    # The layers of BVLC's Caffe model with random weights, and the link
    # each one goes to.
    net = caffe_model()
    links = {}

    def conv(name, link, out_channels, in_channels, ksize):
        net.convolution(name, out_channels, in_channels, ksize)
        links[name] = link

    def fc(name, link, out_size, in_size):
        net.inner_product(name, out_size, in_size)
        links[name] = link

    conv('conv1/7x7_s2', '/conv1', 64, 3, 7)
    conv('conv2/3x3_reduce', '/conv2_reduce', 64, 64, 1)
    conv('conv2/3x3', '/conv2', 192, 64, 3)
    for name, (n_in, out1, proj3, out3, proj5, out5, projp) in \
            INCEPTIONS.items():
        prefix, link = 'inception_{}/'.format(name), '/inc{}/'.format(name)
        conv(prefix + '1x1', link + 'conv1', out1, n_in, 1)
        conv(prefix + '3x3_reduce', link + 'proj3', proj3, n_in, 1)
        conv(prefix + '3x3', link + 'conv3', out3, proj3, 3)
        conv(prefix + '5x5_reduce', link + 'proj5', proj5, n_in, 1)
        conv(prefix + '5x5', link + 'conv5', out5, proj5, 5)
        net.pooling(prefix + 'pool', 3, 1)
        conv(prefix + 'pool_proj', link + 'projp', projp, n_in, 1)
    for loss, n_in in (('loss1', 512), ('loss2', 528)):
        conv(loss + '/conv', '/{}_conv'.format(loss), 128, n_in, 1)
        fc(loss + '/fc', '/{}_fc1'.format(loss), 1024, 2048)
        fc(loss + '/classifier', '/{}_fc2'.format(loss), 1000, 1024)
    fc('loss3/classifier', '/loss3_fc', 1000, 1024)
    return net, links


def _assert_params_are_blobs(model, net, links):
    params = dict(model.namedparams())
    assert len(params) == 2 * len(links)
    for name, link in links.items():
        W, b = net.blobs[name]
        numpy.testing.assert_array_equal(params[link + '/W'].array, W,
                                         err_msg=name)
        numpy.testing.assert_array_equal(params[link + '/b'].array, b,
                                         err_msg=name)


@pytest.fixture(scope='module')
def caffemodel(caffe_model, tmp_path_factory):
    net, links = _googlenet_caffemodel(caffe_model)
    path = net.save(tmp_path_factory.mktemp('googlenet') / 'g.caffemodel')
    return path, net, links


def test_convert_caffemodel_to_npz(caffemodel, tmp_path):
    path, net, links = caffemodel
    path_npz = str(tmp_path / 'g.npz')
    googlenet.GoogLeNet.convert_caffemodel_to_npz(path, path_npz)
    with numpy.load(path_npz) as npz:
        assert sorted(npz.files) == sorted(
            link[1:] + '/' + p for link in links.values() for p in 'Wb')
    model = googlenet.GoogLeNet(pretrained_model=path_npz)
    _assert_params_are_blobs(model, net, links)


def test_pretrained_auto(caffemodel, models_root, download_cache,
                         monkeypatch, capsys):
    # The Caffe model is in the download cache: the first model converts
    # it into the dataset root, the second reads the converted file.
    path, net, links = caffemodel
    shutil.copy(path, download_cache(URL))
    _assert_params_are_blobs(googlenet.GoogLeNet(), net, links)
    assert 'Now loading caffemodel' in capsys.readouterr().err
    assert os.path.exists(os.path.join(models_root, 'bvlc_googlenet.npz'))

    os.remove(download_cache(URL))
    monkeypatch.setattr(download, 'cached_download', None)
    _assert_params_are_blobs(googlenet.GoogLeNet(), net, links)
    assert capsys.readouterr().err == ''


def test_pretrained_auto_download_fails(models_root, monkeypatch):
    urls = []

    def cached_download(url):
        urls.append(url)
        raise OSError('offline')

    monkeypatch.setattr(download, 'cached_download', cached_download)
    with pytest.raises(OSError, match='offline'):
        googlenet.GoogLeNet()
    assert urls == [URL]
    assert not [name for name in os.listdir(models_root)
                if not name.endswith('.lock')]


def test_missing_pretrained_model(tmp_path):
    path = str(tmp_path / 'missing.npz')
    with pytest.raises(FileNotFoundError, match='missing.npz'):
        googlenet.GoogLeNet(pretrained_model=path)


# Layouts of saved files, initial parameters, layer outputs and the
# preprocessing, against the numbers of Chainer 7.8.1 (see conftest.py).
@pytest.mark.parametrize('name', [
    'GoogLeNet/layout',
    'GoogLeNet/init',
    'GoogLeNet/forward',
    'GoogLeNet/predict',
    'prepare/googlenet',
])
def test_matches_chainer_7_8(name, matches_chainer_7_8):
    matches_chainer_7_8(name)


@pytest.mark.slow
@pytest.mark.parametrize('name', [
    'GoogLeNet/forward224',
    'GoogLeNet/predict_oversample',
])
def test_matches_chainer_7_8_slow(name, matches_chainer_7_8):
    matches_chainer_7_8(name)
