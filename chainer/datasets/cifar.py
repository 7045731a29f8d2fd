"""The CIFAR-10 and CIFAR-100 datasets of small colour images."""

import os
import pickle
import tarfile

import numpy

import chainer
from chainer.dataset import download
from chainer.datasets import tuple_dataset

_BASE_URL = 'https://www.cs.toronto.edu/~kriz/'


def get_cifar10(withlabel=True, ndim=3, scale=1., dtype=None):
    """Gets the CIFAR-10 dataset.

    `CIFAR-10 <https://www.cs.toronto.edu/~kriz/cifar.html>`_ holds 32x32
    colour images of 10 classes, 50,000 for training and 10,000 for
    testing. The pixels are scaled to floats in ``[0, scale]``.

    The archive ``cifar-10-python.tar.gz`` is downloaded once and its
    arrays cached as ``cifar-10.npz`` under
    ``<dataset root>/pfnet/chainer/cifar`` (keys ``train_x``, ``train_y``,
    ``test_x``, ``test_y``, as Chainer writes them). The environment
    variable ``CHAINER_CIFAR_BASE_URL`` may name a mirror of the archive's
    directory (e.g. ``file:///data/cifar/``). A damaged download or cache
    (a truncated archive, a missing member) is removed so that the next
    call downloads it again; the error names the address and
    ``CHAINER_CIFAR_BASE_URL``.

    Args:
        withlabel (bool): If ``True``, the examples are ``(image, label)``
            tuples (``int32`` labels); otherwise they are images.
        ndim (int): 1 for images of shape ``(3072,)``, 3 for
            ``(3, 32, 32)``.
        scale (float): The value of a full-intensity pixel.
        dtype: The dtype of the images; ``chainer.config.dtype`` by
            default.

    Returns:
        tuple: The training and the test datasets.
    """
    return _get_cifar('cifar-10', withlabel, ndim, scale, dtype)


def get_cifar100(withlabel=True, ndim=3, scale=1., dtype=None):
    """Gets the CIFAR-100 dataset.

    `CIFAR-100 <https://www.cs.toronto.edu/~kriz/cifar.html>`_ holds 32x32
    colour images of 100 classes (the "fine" labels), 50,000 for training
    and 10,000 for testing. It is loaded and cached as
    :func:`get_cifar10` does, as ``cifar-100.npz``.

    It takes the arguments of :func:`get_cifar10`.

    Returns:
        tuple: The training and the test datasets.
    """
    return _get_cifar('cifar-100', withlabel, ndim, scale, dtype)


def _get_cifar(name, withlabel, ndim, scale, dtype):
    root = download.get_dataset_directory(
        os.path.join('pfnet', 'chainer', 'cifar'))
    read = _read_cifar10 if name == 'cifar-10' else _read_cifar100

    def read_archive(paths):
        archive_path, = paths
        with download._reading(archive_path):
            with tarfile.open(archive_path, 'r:gz') as archive:
                return read(archive)

    def creator(path):
        raw = download._download_verified(
            'CHAINER_CIFAR_BASE_URL', [_BASE_URL], [name + '-python.tar.gz'],
            read_archive)
        numpy.savez_compressed(path, **raw)
        return raw

    def loader(path):
        raw = download._load_npz(
            path, ('train_x', 'train_y', 'test_x', 'test_y'))
        with download._reading(path):
            for split in ('train', 'test'):
                if raw[split + '_x'].shape[1:] != (3072,) or \
                        raw[split + '_y'].shape != raw[split + '_x'].shape[:1]:
                    raise ValueError('wrong shapes of the {} split'.format(
                        split))
        return raw

    raw = download.cache_or_load_file(
        os.path.join(root, name + '.npz'), creator, loader)
    return tuple(
        _preprocess_cifar(raw[split + '_x'], raw[split + '_y'], withlabel,
                          ndim, scale, dtype)
        for split in ('train', 'test'))


def _read_cifar10(archive):
    def load(member):
        d = _pickle_load(archive.extractfile('cifar-10-batches-py/' + member))
        return (numpy.asarray(d['data'], numpy.uint8).reshape(-1, 3072),
                numpy.asarray(d['labels'], numpy.uint8))

    batches = [load('data_batch_{}'.format(i)) for i in range(1, 6)]
    test_x, test_y = load('test_batch')
    return {'train_x': numpy.concatenate([x for x, _ in batches]),
            'train_y': numpy.concatenate([y for _, y in batches]),
            'test_x': test_x, 'test_y': test_y}


def _read_cifar100(archive):
    raw = {}
    for split in ('train', 'test'):
        d = _pickle_load(archive.extractfile('cifar-100-python/' + split))
        raw[split + '_x'] = numpy.asarray(
            d['data'], numpy.uint8).reshape(-1, 3072)
        raw[split + '_y'] = numpy.asarray(d['fine_labels'], numpy.uint8)
    return raw


def _preprocess_cifar(images, labels, withlabel, ndim, scale, dtype):
    if ndim == 1:
        images = images.reshape(-1, 3072)
    elif ndim == 3:
        images = images.reshape(-1, 3, 32, 32)
    else:
        raise ValueError('invalid ndim for CIFAR dataset')
    images = images.astype(chainer.get_dtype(dtype))
    images *= scale / 255.
    if withlabel:
        return tuple_dataset.TupleDataset(images, labels.astype(numpy.int32))
    return images


def _pickle_load(f):
    # The archives hold pickles written by Python 2.
    return pickle.load(f, encoding='latin-1')
