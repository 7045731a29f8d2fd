"""The ImageNet example on a handful of generated images."""

import importlib
import math
import pathlib
import random
import sys

import numpy
import pytest

import chainer
from chainer import testing

Image = pytest.importorskip('PIL.Image')

# A little larger than the 227-pixel crop of NIN and AlexNet.
IMAGE_SIZE = 230
N_IMAGES = 4


@pytest.fixture
def image_list(tmp_path):
    """Writes 4 random RGB images and a ``path label`` list file of them.

    Returns:
        tuple: The list file and the images as a (4, 3, H, W) array.
    """
    rng = numpy.random.RandomState(0)
    images = rng.randint(
        0, 256, (N_IMAGES, IMAGE_SIZE, IMAGE_SIZE, 3)).astype(numpy.uint8)
    (tmp_path / 'images').mkdir()
    lines = []
    for i, image in enumerate(images):
        name = 'images/{}.png'.format(i)
        Image.fromarray(image).save(tmp_path / name)
        lines.append('{} {}\n'.format(name, i % 2))
    list_file = tmp_path / 'list.txt'
    list_file.write_text(''.join(lines))
    return list_file, images.transpose(0, 3, 1, 2)


def test_compute_mean(tmp_path, image_list, run_example):
    list_file, images = image_list
    run_example('imagenet/compute_mean.py',
                [list_file, '--root', tmp_path, '--output', 'mean.npy'],
                tmp_path)
    mean = numpy.load(tmp_path / 'mean.npy')
    assert mean.dtype == numpy.float32
    testing.assert_allclose(mean, images.mean(axis=0), rtol=1e-6)


def test_train_imagenet_test_mode(tmp_path, image_list, run_example,
                                  read_log, read_npz):
    list_file, images = image_list
    numpy.save(tmp_path / 'mean.npy',
               images.mean(axis=0).astype(numpy.float32))
    out = tmp_path / 'result'
    output = run_example(
        'imagenet/train_imagenet.py',
        [list_file, list_file, '--arch', 'nin', '--test',
         '--batchsize', 4, '--val_batchsize', 2, '--epoch', 1,
         '--loaderjob', 1, '--mean', tmp_path / 'mean.npy',
         '--root', tmp_path, '--out', out],
        tmp_path)
    assert 'Dtype: float32' in output

    # --test evaluates, logs and takes snapshots at every iteration.
    log = read_log(out / 'log')
    assert [e['iteration'] for e in log] == [1]
    model = read_npz(out / 'model_iter_1')
    assert model['mlpconv1/0/W'].shape == (96, 3, 11, 11)
    assert model['mlpconv4/2/W'].shape == (1000, 1024, 1, 1)
    snapshot = read_npz(out / 'snapshot_iter_1')
    assert snapshot['updater/iteration'] == 1
    assert snapshot['updater/optimizer:main/t'] == 1
    with open(out / 'cg.dot') as f:
        assert 'Convolution2DFunction' in f.read()

    # The second epoch, resumed from the snapshot.
    run_example(
        'imagenet/train_imagenet.py',
        [list_file, list_file, '--test', '-B', 4, '-b', 2, '-E', 2,
         '-j', 1, '-m', tmp_path / 'mean.npy', '-R', tmp_path,
         '-o', out, '--resume', out / 'snapshot_iter_1'],
        tmp_path)
    log = read_log(out / 'log')
    assert [e['iteration'] for e in log] == [1, 2]
    assert [e['epoch'] for e in log] == [1, 2]
    for entry in log:
        assert math.isfinite(entry['main/loss'])
        assert math.isfinite(entry['validation/main/loss'])
        assert 0 <= entry['validation/main/accuracy'] <= 1
        assert entry['lr'] == 0.01
    assert read_npz(out / 'snapshot_iter_2')['updater/iteration'] == 2


IMAGENET_DIR = pathlib.Path(__file__).resolve().parents[3] / \
    'examples' / 'imagenet'


@pytest.fixture
def imagenet(monkeypatch):
    """The train_imagenet module, imported from the example's directory."""
    monkeypatch.syspath_prepend(str(IMAGENET_DIR))
    module = importlib.import_module('train_imagenet')
    yield module
    for name in ('train_imagenet', 'alex', 'googlenet', 'googlenetbn',
                 'nin', 'resnet50', 'resnext50'):
        sys.modules.pop(name, None)


def test_preprocessed_dataset(tmp_path, image_list, imagenet):
    list_file, images = image_list
    mean = images.mean(axis=0).astype(numpy.float32)
    crop = 200
    margin = (IMAGE_SIZE - crop) // 2

    val = imagenet.PreprocessedDataset(
        str(list_file), str(tmp_path), mean, crop, random=False)
    assert len(val) == N_IMAGES
    image, label = val[3]
    assert label == 1
    assert image.shape == (3, crop, crop)
    assert image.dtype == numpy.float32
    centre = numpy.s_[:, margin:margin + crop, margin:margin + crop]
    testing.assert_allclose(
        image, (images[3][centre] - mean[centre]) / 255, atol=1e-6)

    # A random crop is some window of the image, possibly flipped.
    random.seed(1)
    train = imagenet.PreprocessedDataset(
        str(list_file), str(tmp_path), mean, crop)
    flips = set()
    for _ in range(8):
        image, _ = train[0]
        found = []
        for flipped in (False, True):
            # The image is flipped, the mean is not.
            source = images[0][:, :, ::-1] if flipped else images[0]
            source = (source - mean) / 255
            for top in range(IMAGE_SIZE - crop):
                for left in range(IMAGE_SIZE - crop):
                    window = source[:, top:top + crop, left:left + crop]
                    if numpy.allclose(window[:, 0, :8], image[:, 0, :8],
                                      atol=1e-5) and numpy.allclose(
                                          window, image, atol=1e-5):
                        found.append(flipped)
        assert len(found) == 1
        flips.add(found[0])
    assert flips == {False, True}


# Parameter counts: AlexNet's and ResNet's are the published ones (plus the
# bias of ResNet's first convolution, which Chainer's example keeps); all
# equal those of the same models built with Chainer 7.8.1.
@pytest.mark.parametrize('arch,n_params', [
    pytest.param('alex', 62378344, marks=pytest.mark.slow),
    ('nin', 7595176),
    ('googlenet', 13378280),
    ('googlenetbn', 17681464),
    ('resnet50', 25557096),
    pytest.param('resnext50', 25028968, marks=pytest.mark.slow),
])
def test_architecture_trains(arch, n_params, imagenet):
    model = imagenet.ARCHS[arch]()
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, 3, model.insize, model.insize)).astype(
        numpy.float32)
    t = numpy.array([3, 999], numpy.int32)
    reporter = chainer.Reporter()
    reporter.add_observer('main', model)
    observation = {}
    with reporter.scope(observation):
        loss = model(x, t)
    assert math.isfinite(float(loss.array))
    assert 'main/loss' in observation
    assert 0 <= float(observation['main/accuracy'].array) <= 1

    assert sum(p.size for p in model.params()) == n_params
    model.cleargrads()
    loss.backward()
    for name, param in model.namedparams():
        assert param.grad is not None, name
        assert numpy.isfinite(param.grad).all(), name
