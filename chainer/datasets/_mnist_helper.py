"""Reading the IDX files of MNIST-like datasets and shaping their arrays."""

import gzip
import os
import struct

import numpy

import chainer
from chainer.dataset import download
from chainer.datasets import tuple_dataset

_IMAGE_SIZE = 28 * 28
_IMAGE_SHAPES = {1: (-1, _IMAGE_SIZE), 2: (-1, 28, 28), 3: (-1, 1, 28, 28)}


_IMAGES_MAGIC = 2051
_LABELS_MAGIC = 2049


def _read_idx(path, magic, item_shape):
    """Reads a gzipped IDX file of unsigned bytes, checking all of it.

    Args:
        path (str): The file.
        magic (int): The magic number the file must start with.
        item_shape (tuple of int): The shape of one item, ``(28, 28)`` for
            images and ``()`` for labels.

    Returns:
        numpy.ndarray: The items, ``uint8``.

    Raises:
        chainer.dataset.download._DamagedFileError: If the file is not a
            complete gzip stream holding exactly such an IDX file.
    """
    with download._reading(path):
        with gzip.open(path, 'rb') as f:
            data = f.read()
        header_size = 4 * (2 + len(item_shape))
        if len(data) < header_size:
            raise ValueError('the IDX header is truncated')
        header = struct.unpack('>' + 'i' * (2 + len(item_shape)),
                               data[:header_size])
        if header[0] != magic or tuple(header[2:]) != item_shape:
            raise ValueError('wrong IDX header {} (expected magic {} and '
                             'item shape {})'.format(header, magic,
                                                     item_shape))
        n = header[1]
        body = memoryview(data)[header_size:]
        if len(body) != n * int(numpy.prod(item_shape)):
            raise ValueError('the IDX file announces {} items but holds {} '
                             'bytes of them'.format(n, len(body)))
        return numpy.frombuffer(body, numpy.uint8).reshape(
            (n,) + item_shape)


def _read_pair(paths):
    """Reads the images and labels files of a split.

    Returns:
        dict: ``x`` (``uint8``, shape ``(N, 784)``) and ``y`` (``uint8``,
        shape ``(N,)``).
    """
    x_path, y_path = paths
    x = _read_idx(x_path, _IMAGES_MAGIC, (28, 28)).reshape(-1, _IMAGE_SIZE)
    y = _read_idx(y_path, _LABELS_MAGIC, ())
    if len(x) != len(y):
        raise ValueError('wrong pair of MNIST images and labels: {} images, '
                         '{} labels'.format(len(x), len(y)))
    return {'x': x, 'y': y}


def _write_npz(path, raw):
    numpy.savez_compressed(path, **raw)
    return raw


def make_npz(path, urls):
    """Downloads a pair of IDX files and caches their arrays as an .npz.

    The files are gzipped IDX files as published by MNIST: the images
    (the magic number 2051, the big-endian count, rows and columns, then
    the 28x28 pixels of each image as bytes) and the labels (the magic
    number 2049, the count, then one byte per label). Both are read whole
    and checked; a damaged download is removed from the cache before the
    error is raised, so that the next call downloads it again.

    Args:
        path (str): The path of the .npz file to write, with arrays ``x``
            (``uint8``, shape ``(N, 784)``) and ``y`` (``uint8``, shape
            ``(N,)``).
        urls (tuple of str): The URLs of the images and labels files.

    Returns:
        dict: The arrays ``x`` and ``y``.

    Raises:
        ValueError: If a file is damaged or the two files hold different
            numbers of examples.
    """
    paths = [download.cached_download(url) for url in urls]
    try:
        raw = _read_pair(paths)
    except ValueError as e:
        damaged = [(url, p) for url, p in zip(urls, paths)
                   if getattr(e, 'path', p) == p]
        for _, p in damaged:
            download._evict(p)
        raise ValueError('{} (downloaded from {}; removed from the '
                         'cache)'.format(e, ', '.join(
                             url for url, _ in damaged))) from e
    return _write_npz(path, raw)


def _load_split(path):
    raw = download._load_npz(path, ('x', 'y'))
    with download._reading(path):
        if raw['x'].ndim != 2 or raw['x'].shape[1] != _IMAGE_SIZE \
                or raw['y'].shape != raw['x'].shape[:1]:
            raise ValueError('wrong shapes {} and {}'.format(
                raw['x'].shape, raw['y'].shape))
    return raw


def get_mnist_like(dataset_name, base_url_env, default_base_urls, withlabel,
                   ndim, scale, dtype, label_dtype, rgb_format):
    """Gets the training and test sets of an MNIST-like dataset.

    Args:
        dataset_name (str): The cache directory under the dataset root,
            e.g. ``'pfnet/chainer/mnist'``.
        base_url_env (str): The environment variable that may name a
            mirror of the files.
        default_base_urls (list of str): The URLs of directories holding
            the four files ``train-images-idx3-ubyte.gz``,
            ``train-labels-idx1-ubyte.gz``, ``t10k-images-idx3-ubyte.gz``
            and ``t10k-labels-idx1-ubyte.gz``, tried in order.
        withlabel, ndim, scale, dtype, label_dtype, rgb_format: As for
            :func:`preprocess_mnist` (``dtype`` may be ``None`` for
            ``chainer.config.dtype``).

    Returns:
        tuple: The training and the test datasets.
    """
    dtype = chainer.get_dtype(dtype)
    directory = download.get_dataset_directory(dataset_name)
    splits = []
    for npz_name, prefix in (('train.npz', 'train'), ('test.npz', 't10k')):
        file_names = [prefix + suffix for suffix in (
            '-images-idx3-ubyte.gz', '-labels-idx1-ubyte.gz')]

        def creator(path, file_names=file_names):
            return _write_npz(path, download._download_verified(
                base_url_env, default_base_urls, file_names, _read_pair))

        raw = download.cache_or_load_file(
            os.path.join(directory, npz_name), creator, _load_split)
        splits.append(preprocess_mnist(
            raw, withlabel, ndim, scale, dtype, label_dtype, rgb_format))
    return tuple(splits)


def preprocess_mnist(raw, withlabel, ndim, scale, image_dtype, label_dtype,
                     rgb_format):
    """Shapes and scales the arrays of an MNIST-like split.

    Args:
        raw: The arrays ``x`` and ``y``, by key.
        withlabel (bool): Whether to pair the images with their labels.
        ndim (int): 1 for images of shape ``(784,)``, 2 for ``(28, 28)``, 3
            for ``(1, 28, 28)`` (``(3, 28, 28)`` with ``rgb_format``).
        scale (float): The value of a white pixel (255 in the files).
        image_dtype: The dtype of the images.
        label_dtype: The dtype of the labels.
        rgb_format (bool): With ``ndim == 3``, whether to repeat the grey
            channel three times.

    Returns:
        A :class:`~chainer.datasets.TupleDataset` of images and labels, or
        the array of images.

    Raises:
        ValueError: If ``ndim`` is not 1, 2 or 3.
    """
    shape = _IMAGE_SHAPES.get(ndim)
    if shape is None:
        raise ValueError('invalid ndim for MNIST dataset')
    images = raw['x'].astype(image_dtype).reshape(shape)
    images *= scale / 255.
    if ndim == 3 and rgb_format:
        images = images.repeat(3, axis=1)
    if withlabel:
        return tuple_dataset.TupleDataset(images, raw['y'].astype(label_dtype))
    return images
