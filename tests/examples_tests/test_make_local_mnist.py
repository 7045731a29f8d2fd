import os
import subprocess
import sys

import numpy
import pytest

import chainer

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
_SHARED_MNIST = os.path.join(_ROOT, '..', 'shared', 'data', 'mnist')
_SCRIPT = os.path.join(_ROOT, 'examples', 'mnist', 'make_local_mnist.py')


@pytest.mark.skipif(
    not os.path.isdir(_SHARED_MNIST),
    reason='the MNIST test set is expected at ../shared/data/mnist beside '
           'the checkout')
def test_mirror_feeds_the_real_loader(tmp_path, monkeypatch):
    mirror = tmp_path / 'mirror'
    result = subprocess.run(
        [sys.executable, _SCRIPT, _SHARED_MNIST, str(mirror)],
        capture_output=True, text=True, check=True)
    assert result.stdout.strip() == 'file://{}/'.format(mirror)
    monkeypatch.setenv('CHAINER_MNIST_BASE_URL', result.stdout.strip())
    monkeypatch.setenv('CHAINER_DATASET_ROOT', str(tmp_path / 'root'))
    train, test = chainer.datasets.get_mnist(withlabel=True, ndim=1)
    assert (len(train), len(test)) == (8000, 2000)
    x, t = train[0]
    assert x.shape == (784,) and x.dtype == numpy.float32
    assert 0.0 <= x.min() and x.max() <= 1.0
    labels = numpy.array([label for _, label in test])
    # All ten digits appear in the 2,000 validation images.
    assert set(labels.tolist()) == set(range(10))


@pytest.mark.parametrize('source', ['missing', 'empty'])
def test_missing_source_says_what_it_needs(tmp_path, source):
    if source == 'empty':
        (tmp_path / source).mkdir()
    mirror = tmp_path / 'mirror'
    result = subprocess.run(
        [sys.executable, _SCRIPT, str(tmp_path / source), str(mirror)],
        capture_output=True, text=True)
    assert result.returncode == 2
    assert 't10k-images-idx3-ubyte.gz' in result.stderr
    assert 't10k-labels-idx1-ubyte.gz' in result.stderr
    assert 'Traceback' not in result.stderr
    assert not mirror.exists()
