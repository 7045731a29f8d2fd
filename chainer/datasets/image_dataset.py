"""Datasets of image files, on disk or in zip archives (needs Pillow)."""

import bisect
import io
import itertools
import numbers
import os
import threading
import zipfile

import numpy

import chainer
from chainer.dataset import dataset_mixin

try:
    from PIL import Image
    available = True
    _import_error = None
except ImportError as e:
    available = False
    _import_error = e


def _check_pillow_availability():
    if not available:
        raise ImportError(
            'PIL cannot be loaded. Install Pillow!\n'
            'The actual import error is as follows:\n'
            + str(_import_error))


def _read_image_as_array(path, dtype):
    # Returns the image in CHW layout; a greyscale image gets one channel.
    with Image.open(path) as f:
        image = numpy.asarray(f, dtype=dtype)
    if image.ndim == 2:
        return image[numpy.newaxis]
    return image.transpose(2, 0, 1)


def _read_pairs(path):
    # Reads "<image path> <integer label>" lines.
    pairs = []
    with open(path) as f:
        for i, line in enumerate(f):
            pair = line.strip().split()
            if len(pair) != 2:
                raise ValueError(
                    'invalid format at line {} in file {}'.format(i, path))
            pairs.append((pair[0], int(pair[1])))
    return pairs


class ImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of image files.

    Each example is an image read with Pillow as an array of shape
    ``(channels, height, width)``; a greyscale image has one channel. The
    images are read when accessed.

    Args:
        paths (str or list of str): The image paths, relative to ``root``,
            or the path of a text file listing them one per line.
        root (str): The directory the paths are relative to.
        dtype: The dtype of the arrays; ``chainer.config.dtype`` by
            default.

    Raises:
        ImportError: If Pillow is not installed.
    """

    def __init__(self, paths, root='.', dtype=None):
        _check_pillow_availability()
        if isinstance(paths, str):
            with open(paths) as paths_file:
                paths = [path.strip() for path in paths_file]
        self._paths = paths
        self._root = root
        self._dtype = chainer.get_dtype(dtype)

    def __len__(self):
        return len(self._paths)

    def get_example(self, i):
        path = os.path.join(self._root, self._paths[i])
        return _read_image_as_array(path, self._dtype)


class LabeledImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of image files with integer labels.

    Each example is a tuple of the image (as in :class:`ImageDataset`) and
    its label, a 0-dimensional array of ``label_dtype``.

    Args:
        pairs (str or list of tuples): The ``(path, label)`` pairs, or the
            path of a text file with one ``path label`` pair per line
            (separated by white space).
        root (str): The directory the paths are relative to.
        dtype: The dtype of the images; ``chainer.config.dtype`` by
            default.
        label_dtype: The dtype of the labels.

    Raises:
        ImportError: If Pillow is not installed.
        ValueError: If a line of the pairs file is not a pair.
    """

    def __init__(self, pairs, root='.', dtype=None, label_dtype=numpy.int32):
        _check_pillow_availability()
        if isinstance(pairs, str):
            pairs = _read_pairs(pairs)
        self._pairs = pairs
        self._root = root
        self._dtype = chainer.get_dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, label = self._pairs[i]
        image = _read_image_as_array(
            os.path.join(self._root, path), self._dtype)
        return image, numpy.array(label, dtype=self._label_dtype)


class ZippedImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of the image files of a zip archive.

    The examples are the files of the archive (directories excluded), in
    the archive's order, read as in :class:`ImageDataset`. The archive is
    reopened in each process that reads it (e.g. forked workers of
    :class:`~chainer.iterators.MultiprocessIterator`), and the dataset can
    be pickled.

    Args:
        zipfilename (str): The path of the zip archive.
        dtype: The dtype of the images; ``chainer.config.dtype`` by
            default.

    Raises:
        ImportError: If Pillow is not installed.
    """

    def __init__(self, zipfilename, dtype=None):
        _check_pillow_availability()
        self._zipfilename = zipfilename
        self._zf = zipfile.ZipFile(zipfilename)
        self._zf_pid = os.getpid()
        self._dtype = chainer.get_dtype(dtype)
        self._paths = [name for name in self._zf.namelist()
                       if not name.endswith('/')]
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._paths)

    def __getstate__(self):
        state = self.__dict__.copy()
        state['_zf'] = None
        state['_lock'] = None
        return state

    def __setstate__(self, state):
        self.__dict__ = state
        self._lock = threading.Lock()

    def get_example(self, i_or_filename):
        """Returns an image by index or by its name in the archive.

        Args:
            i_or_filename (int or str): The index of the file, or its name
                in the archive.

        Returns:
            numpy.ndarray: The image, of shape ``(channels, height,
            width)``.
        """
        if isinstance(i_or_filename, numbers.Integral):
            name = self._paths[i_or_filename]
        else:
            name = i_or_filename
        # Pillow seeks in the file, which a zip member cannot do: read the
        # whole member first.
        with self._lock:
            if self._zf is None or self._zf_pid != os.getpid():
                self._zf_pid = os.getpid()
                self._zf = zipfile.ZipFile(self._zipfilename)
            data = self._zf.read(name)
        return _read_image_as_array(io.BytesIO(data), self._dtype)


class LabeledZippedImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of image files of a zip archive with integer labels.

    Args:
        zipfilename (str): The path of the zip archive.
        labelfilename (str): The path of a text file with one
            ``name label`` pair per line, ``name`` being the file's name in
            the archive.
        dtype: The dtype of the images; ``chainer.config.dtype`` by
            default.
        label_dtype: The dtype of the labels.

    Raises:
        ImportError: If Pillow is not installed.
        ValueError: If a line of the label file is not a pair.
    """

    def __init__(self, zipfilename, labelfilename, dtype=None,
                 label_dtype=numpy.int32):
        _check_pillow_availability()
        self._pairs = _read_pairs(labelfilename)
        self._label_dtype = label_dtype
        self._zipfile = ZippedImageDataset(zipfilename, dtype=dtype)

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        name, label = self._pairs[i]
        return (self._zipfile.get_example(name),
                numpy.array(label, dtype=self._label_dtype))


class MultiZippedImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of the image files of several zip archives, one after another.

    Args:
        zipfilenames (list of str): The paths of the zip archives.
        dtype: The dtype of the images; ``chainer.config.dtype`` by
            default.
    """

    def __init__(self, zipfilenames, dtype=None):
        self._zfs = [ZippedImageDataset(name, dtype) for name in zipfilenames]
        self._starts = [0] + list(
            itertools.accumulate(len(zf) for zf in self._zfs))

    def __len__(self):
        return self._starts[-1]

    def get_example(self, i):
        k = bisect.bisect(self._starts, i) - 1
        return self._zfs[k].get_example(i - self._starts[k])
