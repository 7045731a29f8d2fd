#!/usr/bin/env python
"""Builds a local MNIST mirror from the 10,000 images of the test set.

For machines that cannot download MNIST: it re-packs the first 8,000
images of the official test files (``t10k-*-ubyte.gz``) as the training
files and the last 2,000 as the test files, in the same gzipped IDX
format, so that ``chainer.datasets.get_mnist`` can read them through
``CHAINER_MNIST_BASE_URL=file://<destination>/``.

Usage:
    python make_local_mnist.py SOURCE_DIR DEST_DIR
"""

import argparse
import gzip
import os
import shutil
import struct

import numpy

_N_TRAIN = 8000


def _read_idx(path):
    with gzip.open(path, 'rb') as f:
        data = f.read()
    magic, count = struct.unpack('>II', data[:8])
    n_dims = magic & 0xff
    dims = struct.unpack('>' + 'I' * (n_dims - 1), data[8:4 * (n_dims + 1)])
    array = numpy.frombuffer(data, numpy.uint8, offset=4 * (n_dims + 1))
    return magic, array.reshape((count,) + dims)


def _write_idx(path, magic, array):
    header = struct.pack('>I', magic) + struct.pack(
        '>' + 'I' * array.ndim, *array.shape)
    with gzip.open(path, 'wb') as f:
        f.write(header + array.tobytes())


_SOURCES = ('t10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz')


def _check_source(source):
    """Returns why ``source`` cannot be read, or ``None``."""
    missing = [name for name in _SOURCES
               if not os.path.isfile(os.path.join(source, name))]
    if not os.path.isdir(source):
        return '{} is not a folder'.format(source)
    if missing:
        return '{} lacks {}'.format(source, ' and '.join(missing))
    return None


def _write_atomically(path, magic, array):
    tmp = path + '.tmp'
    try:
        _write_idx(tmp, magic, array)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def make_mirror(source, dest):
    """Writes the four MNIST files into ``dest`` from the test set.

    The source files are read (and checked) before anything is written;
    each file of the mirror is written aside and renamed into place, and
    ``dest`` is removed again if it was created by a call that failed.

    Args:
        source (str): Folder holding ``t10k-images-idx3-ubyte.gz`` and
            ``t10k-labels-idx1-ubyte.gz``.
        dest (str): Folder to write the mirror into (created if needed).

    Raises:
        FileNotFoundError: If ``source`` lacks one of the two files.
    """
    problem = _check_source(source)
    if problem is not None:
        raise FileNotFoundError(problem)
    arrays = {kind: _read_idx(os.path.join(source,
                                           't10k-{}-ubyte.gz'.format(kind)))
              for kind in ('images-idx3', 'labels-idx1')}
    created = not os.path.isdir(dest)
    os.makedirs(dest, exist_ok=True)
    try:
        for kind, (magic, array) in arrays.items():
            _write_atomically(
                os.path.join(dest, 'train-{}-ubyte.gz'.format(kind)),
                magic, array[:_N_TRAIN])
            _write_atomically(
                os.path.join(dest, 't10k-{}-ubyte.gz'.format(kind)),
                magic, array[_N_TRAIN:])
    except BaseException:
        if created:
            shutil.rmtree(dest, ignore_errors=True)
        raise


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        'source', help='folder holding t10k-images-idx3-ubyte.gz and '
        't10k-labels-idx1-ubyte.gz (the MNIST test set)')
    parser.add_argument('dest', help='folder to write the mirror into')
    args = parser.parse_args()
    problem = _check_source(args.source)
    if problem is not None:
        parser.error(
            '{}; it needs the MNIST test set: {} (as published at '
            'https://storage.googleapis.com/cvdf-datasets/mnist/)'.format(
                problem, ' and '.join(_SOURCES)))
    make_mirror(args.source, args.dest)
    print('file://{}/'.format(os.path.abspath(args.dest)))


if __name__ == '__main__':
    main()
