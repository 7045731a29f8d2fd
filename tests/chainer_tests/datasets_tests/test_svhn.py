"""The SVHN loader, fed small files from a local mirror."""

import os

import numpy
import pytest

from chainer import datasets


def test_svhn(tmp_path, dataset_root, monkeypatch):
    scipy_io = pytest.importorskip('scipy.io')
    rng = numpy.random.RandomState(1)
    mirror = tmp_path / 'svhn_mirror'
    mirror.mkdir()
    raw = {}
    for split, n in (('train', 3), ('test', 2), ('extra', 1)):
        x = rng.randint(0, 256, (32, 32, 3, n)).astype(numpy.uint8)
        y = numpy.array([[10], [1], [9]][:n], numpy.uint8)
        scipy_io.savemat(str(mirror / (split + '_32x32.mat')),
                         {'X': x, 'y': y})
        raw[split] = x, y
    monkeypatch.setenv('CHAINER_SVHN_BASE_URL', str(mirror))
    train, test = datasets.get_svhn()
    x, t = train[0]
    assert x.shape == (3, 32, 32) and x.dtype == numpy.float32
    expected = raw['train'][0].transpose(3, 2, 0, 1).astype(numpy.float32)
    expected /= 255.
    numpy.testing.assert_allclose(train._datasets[0], expected, rtol=1e-6)
    # The digit 0 is labelled 10 in the files.
    assert train._datasets[1].tolist() == [0, 1, 9]
    assert test._datasets[1].tolist() == [0, 1]
    assert len(datasets.get_svhn(add_extra=True)) == 3
    images, _, extra = datasets.get_svhn(withlabel=False, add_extra=True)
    assert images.shape == (3, 3, 32, 32) and extra.shape == (1, 3, 32, 32)
    assert sorted(name for name in os.listdir(
        dataset_root / 'pfnet' / 'chainer' / 'svhn')
        if not name.startswith('.')) \
        == ['extra.npz', 'test.npz', 'train.npz']
