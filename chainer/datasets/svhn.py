"""The SVHN dataset of house-number digits (needs SciPy)."""

import os

import numpy

import chainer
from chainer.dataset import download
from chainer.datasets import tuple_dataset

_BASE_URL = 'http://ufldl.stanford.edu/housenumbers/'


def get_svhn(withlabel=True, scale=1., dtype=None, label_dtype=numpy.int32,
             add_extra=False):
    """Gets the SVHN dataset.

    `The Street View House Numbers (SVHN) dataset
    <http://ufldl.stanford.edu/housenumbers/>`_ holds 32x32 colour images
    of digits cropped from house numbers: 73,257 for training, 26,032 for
    testing and 531,131 extra (easier) training images. The images have
    shape ``(3, 32, 32)``, their pixels scaled to ``[0, scale]``; the label
    of the digit 0 is 0 (it is 10 in the files).

    The MATLAB files ``train_32x32.mat``, ``test_32x32.mat`` (and
    ``extra_32x32.mat``) are downloaded once, read with SciPy, and cached as
    ``train.npz``, ``test.npz`` and ``extra.npz`` under
    ``<dataset root>/pfnet/chainer/svhn``. The environment variable
    ``CHAINER_SVHN_BASE_URL`` may name a mirror of the files. A damaged
    download or cache is removed so that the next call downloads it again;
    the error names the address and ``CHAINER_SVHN_BASE_URL``.

    Args:
        withlabel (bool): If ``True``, the examples are ``(image, label)``
            tuples; otherwise they are images.
        scale (float): The value of a full-intensity pixel.
        dtype: The dtype of the images; ``chainer.config.dtype`` by
            default.
        label_dtype: The dtype of the labels.
        add_extra (bool): Also return the extra training set.

    Returns:
        tuple: The training and test datasets, and the extra one if
        ``add_extra``.

    Raises:
        RuntimeError: If SciPy is not installed.
    """
    try:
        from scipy import io as scipy_io
    except ImportError as e:
        raise RuntimeError('SciPy is not available: %s' % e) from e
    dtype = chainer.get_dtype(dtype)
    splits = ('train', 'test', 'extra') if add_extra else ('train', 'test')
    return tuple(
        _preprocess_svhn(_retrieve_svhn(split, scipy_io), withlabel, scale,
                         dtype, label_dtype)
        for split in splits)


def _retrieve_svhn(split, scipy_io):
    root = download.get_dataset_directory('pfnet/chainer/svhn')

    def read(paths):
        path, = paths
        with download._reading(path):
            try:
                raw = scipy_io.loadmat(path)
            except scipy_io.matlab.MatReadError as e:
                raise ValueError(str(e)) from e
            x, y = raw['X'], raw['y']
            if x.shape[:3] != (32, 32, 3) or y.size != x.shape[3]:
                raise ValueError('wrong shapes {} and {}'.format(
                    x.shape, y.shape))
        return {'x': x.astype(numpy.uint8), 'y': y.astype(numpy.uint8)}

    def creator(path):
        arrays = download._download_verified(
            'CHAINER_SVHN_BASE_URL', [_BASE_URL], [split + '_32x32.mat'],
            read)
        numpy.savez_compressed(path, **arrays)
        return arrays

    return download.cache_or_load_file(
        os.path.join(root, split + '.npz'), creator,
        lambda path: download._load_npz(path, ('x', 'y')))


def _preprocess_svhn(raw, withlabel, scale, image_dtype, label_dtype):
    # The files hold images as (height, width, channel, index).
    images = raw['x'].transpose(3, 2, 0, 1).astype(image_dtype)
    images *= scale / 255.
    labels = raw['y'].astype(label_dtype).flatten()
    labels[labels == 10] = 0
    if withlabel:
        return tuple_dataset.TupleDataset(images, labels)
    return images
