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


def make_mirror(source, dest):
    """Writes the four MNIST files into ``dest`` from the test set.

    Args:
        source (str): Folder holding ``t10k-images-idx3-ubyte.gz`` and
            ``t10k-labels-idx1-ubyte.gz``.
        dest (str): Folder to write the mirror into (created if needed).
    """
    os.makedirs(dest, exist_ok=True)
    for kind in ('images-idx3', 'labels-idx1'):
        magic, array = _read_idx(
            os.path.join(source, 't10k-{}-ubyte.gz'.format(kind)))
        _write_idx(os.path.join(dest, 'train-{}-ubyte.gz'.format(kind)),
                   magic, array[:_N_TRAIN])
        _write_idx(os.path.join(dest, 't10k-{}-ubyte.gz'.format(kind)),
                   magic, array[_N_TRAIN:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('source', help='folder of the t10k-*.gz files')
    parser.add_argument('dest', help='folder to write the mirror into')
    args = parser.parse_args()
    make_mirror(args.source, args.dest)
    print('file://{}/'.format(os.path.abspath(args.dest)))


if __name__ == '__main__':
    main()
