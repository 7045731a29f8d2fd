"""The CIFAR-10 and CIFAR-100 loaders, fed small archives from a file://
mirror."""

import io
import os
import pickle
import tarfile

import numpy
import pytest

from chainer import datasets


def _add_pickle(archive, name, obj):
    data = pickle.dumps(obj, protocol=2)
    info = tarfile.TarInfo(name)
    info.size = len(data)
    archive.addfile(info, io.BytesIO(data))


def _images(rng, n):
    return rng.randint(0, 256, (n, 3072)).astype(numpy.uint8)


@pytest.fixture
def cifar_mirror(tmp_path, monkeypatch):
    """Small CIFAR-10 and CIFAR-100 archives in the published layout."""
    rng = numpy.random.RandomState(0)
    mirror = tmp_path / 'cifar_mirror'
    mirror.mkdir()
    arrays = {}
    with tarfile.open(mirror / 'cifar-10-python.tar.gz', 'w:gz') as archive:
        xs, ys = [], []
        for i in range(1, 6):
            x, y = _images(rng, 2), [i % 10, (i + 3) % 10]
            _add_pickle(archive, 'cifar-10-batches-py/data_batch_%d' % i,
                        {'data': x, 'labels': y, 'batch_label': 'b'})
            xs.append(x)
            ys += y
        test_x = _images(rng, 3)
        _add_pickle(archive, 'cifar-10-batches-py/test_batch',
                    {'data': test_x, 'labels': [9, 0, 1]})
        arrays['cifar-10'] = (numpy.concatenate(xs), ys, test_x, [9, 0, 1])
    with tarfile.open(mirror / 'cifar-100-python.tar.gz', 'w:gz') as archive:
        train_x, test_x = _images(rng, 4), _images(rng, 2)
        _add_pickle(archive, 'cifar-100-python/train',
                    {'data': train_x, 'fine_labels': [99, 0, 5, 42],
                     'coarse_labels': [1, 2, 3, 4]})
        _add_pickle(archive, 'cifar-100-python/test',
                    {'data': test_x, 'fine_labels': [7, 8],
                     'coarse_labels': [0, 0]})
        arrays['cifar-100'] = (train_x, [99, 0, 5, 42], test_x, [7, 8])
    monkeypatch.setenv('CHAINER_CIFAR_BASE_URL', mirror.as_uri())
    return arrays


@pytest.mark.parametrize('name, getter', [
    ('cifar-10', datasets.get_cifar10),
    ('cifar-100', datasets.get_cifar100),
])
def test_cifar(name, getter, cifar_mirror, dataset_root):
    train_x, train_y, test_x, test_y = cifar_mirror[name]
    train, test = getter(scale=2.)
    assert len(train) == len(train_x) and len(test) == len(test_x)
    x, t = train[1]
    assert x.shape == (3, 32, 32) and x.dtype == numpy.float32
    assert t.dtype == numpy.int32 and int(t) == train_y[1]
    expected = train_x.reshape(-1, 3, 32, 32).astype(numpy.float32)
    expected *= 2. / 255.
    numpy.testing.assert_array_equal(train._datasets[0], expected)
    assert test._datasets[1].tolist() == test_y
    # The cache has Chainer's keys and dtypes.
    npz = dataset_root / 'pfnet' / 'chainer' / 'cifar' / (name + '.npz')
    with numpy.load(npz) as raw:
        assert sorted(raw.files) == ['test_x', 'test_y', 'train_x',
                                     'train_y']
        assert raw['train_x'].dtype == numpy.uint8
        numpy.testing.assert_array_equal(raw['train_x'], train_x)
        assert raw['train_y'].dtype == numpy.uint8
        assert raw['train_y'].tolist() == train_y
    flat, _ = getter(withlabel=False, ndim=1, dtype=numpy.float64)
    assert flat.shape == (len(train_x), 3072) and flat.dtype == numpy.float64
    with pytest.raises(ValueError, match='invalid ndim for CIFAR'):
        getter(ndim=2)


def test_cifar_truncated_archive_is_not_cached(cifar_mirror, dataset_root,
                                               monkeypatch, tmp_path):
    mirror = tmp_path / 'cifar_mirror'
    archive = mirror / 'cifar-10-python.tar.gz'
    whole = archive.read_bytes()
    archive.write_bytes(whole[:len(whole) // 2])
    with pytest.raises(OSError, match='CHAINER_CIFAR_BASE_URL') as info:
        datasets.get_cifar10()
    assert 'damaged' in str(info.value)
    cache = dataset_root / '_dl_cache'
    assert [n for n in os.listdir(cache) if not n.endswith('lock')] == []
    archive.write_bytes(whole)
    train, _ = datasets.get_cifar10()
    assert len(train) == 10
