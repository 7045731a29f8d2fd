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


def _read_exactly(f, n_bytes):
    data = f.read(n_bytes)
    if len(data) != n_bytes:
        raise RuntimeError('MNIST file is truncated')
    return data


def make_npz(path, urls):
    """Downloads a pair of IDX files and caches their arrays as an .npz.

    The files are gzipped IDX files as published by MNIST: the images
    (a 4-byte magic number, the big-endian count, rows and columns, then
    the 28x28 pixels of each image as bytes) and the labels (a 4-byte
    magic number, the count, then one byte per label).

    Args:
        path (str): The path of the .npz file to write, with arrays ``x``
            (``uint8``, shape ``(N, 784)``) and ``y`` (``uint8``, shape
            ``(N,)``).
        urls (tuple of str): The URLs of the images and labels files.

    Returns:
        dict: The arrays ``x`` and ``y``.

    Raises:
        RuntimeError: If the two files hold different numbers of examples,
            or a file is truncated.
    """
    x_url, y_url = urls
    x_path = download.cached_download(x_url)
    y_path = download.cached_download(y_url)
    with gzip.open(x_path, 'rb') as fx, gzip.open(y_path, 'rb') as fy:
        _read_exactly(fx, 4)
        _read_exactly(fy, 4)
        n, = struct.unpack('>i', _read_exactly(fx, 4))
        if n != struct.unpack('>i', _read_exactly(fy, 4))[0]:
            raise RuntimeError('wrong pair of MNIST images and labels')
        _read_exactly(fx, 8)
        x = numpy.frombuffer(
            _read_exactly(fx, n * _IMAGE_SIZE), numpy.uint8).reshape(
                n, _IMAGE_SIZE)
        y = numpy.frombuffer(_read_exactly(fy, n), numpy.uint8)
    numpy.savez_compressed(path, x=x, y=y)
    return {'x': x, 'y': y}


def get_mnist_like(dataset_name, base_url_env, default_base_url, withlabel,
                   ndim, scale, dtype, label_dtype, rgb_format):
    """Gets the training and test sets of an MNIST-like dataset.

    Args:
        dataset_name (str): The cache directory under the dataset root,
            e.g. ``'pfnet/chainer/mnist'``.
        base_url_env (str): The environment variable that may name a
            mirror of the files.
        default_base_url (str): The official URL of the directory of the
            four files ``train-images-idx3-ubyte.gz``,
            ``train-labels-idx1-ubyte.gz``, ``t10k-images-idx3-ubyte.gz``
            and ``t10k-labels-idx1-ubyte.gz``.
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
        urls = [download._mirrored_url(base_url_env, default_base_url,
                                       prefix + suffix)
                for suffix in ('-images-idx3-ubyte.gz',
                               '-labels-idx1-ubyte.gz')]
        raw = download.cache_or_load_file(
            os.path.join(directory, npz_name),
            lambda path: make_npz(path, urls), numpy.load)
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
