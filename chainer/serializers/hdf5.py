"""Saving and loading in HDF5 files (needs h5py).

Each serializer path becomes an HDF5 group and each value a dataset, so a
parameter ``predictor/l1/W`` is the dataset ``W`` in group
``/predictor/l1``. ``None`` is saved as an empty dataset.
"""

import numpy

from chainer.backends import _cpu
from chainer import serializer
from chainer.serializers import _common

try:
    import h5py
    _available = True
except ImportError:
    h5py = None
    _available = False


class _H5pyMissingError(ImportError, RuntimeError):
    """Raised when an HDF5 serializer is used without h5py.

    It is a ``RuntimeError``, as in Chainer, and an ``ImportError``.
    """


def _check_available():
    if not _available:
        raise _H5pyMissingError(
            'h5py is not installed on your environment.\n'
            'Please install h5py to activate hdf5 serializers.\n'
            '  $ pip install h5py')


class _MissingGroupError(KeyError, ValueError):
    """Raised for a group that does not exist in a strict load.

    It is a ``ValueError``, as in Chainer, and a ``KeyError`` like any
    other missing key.
    """


class HDF5Serializer(serializer.Serializer):
    """Serializer that writes values into an HDF5 group.

    Args:
        group (h5py.Group): The group to write into (a file is a group).
        compression (int): gzip level (0 to 9) of the datasets with more
            than one element.
    """

    def __init__(self, group, compression=4):
        _check_available()
        self.group = group
        self.compression = compression

    def __getitem__(self, key):
        return HDF5Serializer(
            self.group.require_group(key.strip('/')), self.compression)

    def __call__(self, key, value):
        if value is None:
            # An empty dataset, which h5py has from 2.7 on.
            if h5py.version.version_tuple < (2, 7, 0):
                raise RuntimeError(
                    'h5py>=2.7.0 is required to serialize None.')
            data = h5py.Empty('f')
            compression = None
        else:
            data = _cpu._to_cpu(value)
            compression = None if data.size <= 1 else self.compression
        self.group.create_dataset(key, data=data, compression=compression)
        return value


def _write_hdf5(f, obj, compression):
    if not isinstance(obj, dict):
        HDF5Serializer(f, compression=compression).save(obj)
        return
    for key, value in obj.items():
        data = numpy.asarray(value)
        try:
            f.create_dataset(
                '/' + key.lstrip('/'), data=data,
                compression=None if data.size <= 1 else compression)
        except TypeError as e:
            raise TypeError(
                'A key named "{}" is unable to save in HDF5 format: {}'
                .format(key, e)) from e


def save_hdf5(filename, obj, compression=4):
    """Saves an object to an HDF5 file.

    A path is written atomically: the data go to a temporary file in the
    same directory, which then replaces the path.

    Args:
        filename (str, os.PathLike or file object): Where to write.
        obj: An object with a ``serialize`` method, or a dictionary of
            arrays.
        compression (int): gzip level (0 to 9) of the datasets with more
            than one element.
    """
    _check_available()
    if not _common.is_path(filename):
        with h5py.File(filename, 'w') as f:
            _write_hdf5(f, obj, compression)
        return
    with _common.atomic_path(filename) as tmp:
        with h5py.File(tmp, 'w') as f:
            _write_hdf5(f, obj, compression)


def _read_dataset(group, key, source):
    # The saved array of ``key`` in ``group``, or None if None was saved.
    path = '{}/{}'.format(group.name.rstrip('/'), key)
    dataset = group.get(key)
    if not isinstance(dataset, h5py.Dataset):
        raise KeyError('{!r} is not found in {}'.format(path, source))
    if dataset.shape is None:
        return None
    try:
        return numpy.asarray(dataset)
    except (OSError, ValueError) as e:
        raise _common.damaged('cannot read {!r} from {}: {}'.format(
            path, source, _common.reason(e)), e) from e


class HDF5Deserializer(_common.LoadsOnce, serializer.Deserializer):
    """Deserializer that loads values from an HDF5 group.

    Args:
        group (h5py.Group): The group to read from (a file is a group), or
            ``None`` for a group that does not exist.
        strict (bool): If ``False``, missing keys and groups are skipped
            (the object keeps its value) instead of raising ``KeyError``.

    :meth:`load` applies all or nothing, as
    :class:`~chainer.serializers.NpzDeserializer` does.
    """

    def __init__(self, group, strict=True):
        _check_available()
        self.group = group
        self.strict = strict
        self._source = _group_file_name(group)
        self._path = '' if group is None else group.name.rstrip('/')
        self._loading = _common.Loading()

    def _child(self, group, path):
        child = HDF5Deserializer.__new__(HDF5Deserializer)
        child.__dict__.update(self.__dict__)
        child.group = group
        child._path = path
        return child

    def __getitem__(self, key):
        key = key.strip('/')
        path = '{}/{}'.format(self._path, key)
        group = None if self.group is None else self.group.get(key)
        if not isinstance(group, h5py.Group):
            group = None
        return self._child(group, path)

    def __call__(self, key, value):
        path = '{}/{}'.format(self._path, key)
        group = self.group
        if group is None:
            if not self.strict:
                return value
            raise _MissingGroupError(
                '{!r} is not found in {}: its group does not exist'.format(
                    path, self._source))
        if not self.strict and key not in group:
            return value
        data = _read_dataset(group, key, self._source)
        return _common.load_value(
            path.lstrip('/'), data, value, self._source,
            self._loading.journal)


def _group_file_name(group):
    name = getattr(getattr(group, 'file', None), 'filename', None)
    return name if name else 'the HDF5 file'


def _open_hdf5(filename, source):
    try:
        return h5py.File(filename, 'r')
    except OSError as e:
        if type(e) is not OSError:
            raise
        raise _common.damaged(
            '{} is not a readable HDF5 file: {}'.format(source, e), e) from e


def load_hdf5(filename, obj):
    """Loads an object from an HDF5 file.

    As with :func:`~chainer.serializers.load_npz`, ``serialize`` is called
    once; on a missing key or group, a wrong shape (even one that
    broadcasts) or dtype, or a damaged dataset, the error names the key and
    the file and the object is left exactly as it was. A file that is not
    HDF5 raises a ``ValueError`` that is also an :class:`OSError`, as in
    Chainer.

    Args:
        filename (str, os.PathLike or file object): The file to read.
        obj: The object to load into, with a ``serialize`` method.
    """
    _check_available()
    source = _common.source_name(filename)
    with _open_hdf5(filename, source) as f:
        d = HDF5Deserializer(f)
        d._source = source
        d.load(obj)
