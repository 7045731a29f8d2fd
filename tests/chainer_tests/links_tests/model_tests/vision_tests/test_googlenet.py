import os

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


def test_pretrained_model_files(model, tmp_path):
    root = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path))
    try:
        with pytest.raises(FileNotFoundError, match='bvlc_googlenet.npz'):
            googlenet.GoogLeNet()
        path = os.path.join(
            download.get_dataset_directory('pfnet/chainer/models/'),
            'bvlc_googlenet.npz')
        serializers.save_npz(path, model, compression=False)
        loaded = {'auto': googlenet.GoogLeNet(),
                  'path': googlenet.GoogLeNet(pretrained_model=path)}
    finally:
        download.set_dataset_root(root)
    expected = dict(model.namedparams())
    for how, other in loaded.items():
        for name, param in other.namedparams():
            numpy.testing.assert_array_equal(
                param.array, expected[name].array, err_msg=how)


def test_missing_pretrained_model(tmp_path):
    path = str(tmp_path / 'missing.npz')
    with pytest.raises(FileNotFoundError, match='missing.npz'):
        googlenet.GoogLeNet(pretrained_model=path)
