"""Saving and loading in NumPy's NPZ format.

An object is saved as a flat NPZ archive whose keys are the paths of its
values, such as ``predictor/l1/W`` for a parameter or ``l1/W/m`` for the
``m`` state of an optimizer's rule for that parameter. ``None`` is saved as
a 0-dimensional object array holding ``None``, as Chainer always did, so
files are interchangeable with Chainer's.
"""

import copy
import glob
import os
import pickle
import zipfile
import zlib

import numpy

from chainer.backends import _cpu
from chainer import serializer
from chainer.serializers import _common
from chainer.serializers import _temporary_files


class DictionarySerializer(serializer.Serializer):
    """Serializer that puts the values of an object into a dictionary.

    Keys are the paths of the values (``'l1/W'``); arrays are moved to the
    CPU (NumPy arrays are stored without copying) and ``None`` becomes
    ``numpy.asarray(None)``.

    Args:
        target (dict): The dictionary to fill; a new one by default.
        path (str): Prefix of the keys, ending with ``'/'`` unless empty.

    Example:
        >>> from chainer.serializers import DictionarySerializer
        >>> model = chainer.Chain()
        >>> with model.init_scope():
        ...     model.l1 = L.Linear(3, 2)
        >>> s = DictionarySerializer()
        >>> s.save(model)
        >>> sorted(s.target)
        ['l1/W', 'l1/b']
    """

    def __init__(self, target=None, path=''):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key):
        key = key.strip('/')
        return DictionarySerializer(self.target, self.path + key + '/')

    def __call__(self, key, value):
        key = key.lstrip('/')
        self.target[self.path + key] = (
            numpy.asarray(None) if value is None else _cpu._to_cpu(value))
        return value


def serialize(obj):
    """Returns the dictionary of arrays that :func:`save_npz` would save.

    Args:
        obj: An object with a ``serialize`` method.

    Returns:
        dict: Arrays by key.
    """
    s = DictionarySerializer()
    s.save(obj)
    return s.target


def _write_npz(file, arrays, compression):
    # The layout of numpy.savez: one ``<key>.npy`` member per array.
    method = zipfile.ZIP_DEFLATED if compression else zipfile.ZIP_STORED
    with zipfile.ZipFile(file, mode='w', compression=method,
                         allowZip64=True) as archive:
        for key, value in arrays.items():
            with archive.open(key + '.npy', 'w', force_zip64=True) as f:
                numpy.lib.format.write_array(
                    f, numpy.asanyarray(value), allow_pickle=True)


def save_npz(file, obj, compression=True):
    """Saves an object to an NPZ file.

    A path is written atomically: the data go to a temporary file
    ``.<name>.<random>.tmp`` in the same directory, which then replaces the
    path. Such temporary files of the same path left by a killed process
    are removed first (never one that a live process is writing). Unlike
    :func:`numpy.savez`, no ``.npz`` suffix is appended to the path.

    Args:
        file (str, os.PathLike or file object): Where to write.
        obj: An object with a ``serialize`` method (a link, an optimizer, a
            trainer, ...), or a dictionary of arrays to save as they are.
        compression (bool): Whether to compress the archive (ZIP deflate).

    Example:
        Saving the parameters and persistent values of a link::

            chainer.serializers.save_npz('model.npz', model)
    """
    if _common.is_path(file):
        directory, name = os.path.split(os.path.abspath(os.fsdecode(file)))
        _temporary_files.remove_abandoned(os.path.join(
            glob.escape(directory), '.{}.*.tmp'.format(glob.escape(name))))
        hold = _temporary_files.Hold()
        try:
            with _common.atomic_path(file) as tmp:
                hold.take(tmp)
                with open(tmp, 'wb') as f:
                    save_npz(f, obj, compression)
        finally:
            hold.release()
        return
    arrays = obj if isinstance(obj, dict) else serialize(obj)
    _write_npz(file, arrays, compression)


class _SafeUnpickler(pickle.Unpickler):
    """Unpickles object arrays without running code from the file.

    Only NumPy's array reconstruction is allowed besides the builtin
    containers and scalars that pickle makes without looking up a class.
    """

    _allowed = {
        ('numpy._core.multiarray', '_reconstruct'),
        ('numpy.core.multiarray', '_reconstruct'),
        ('numpy', 'ndarray'),
        ('numpy', 'dtype'),
    }

    def find_class(self, module, name):
        if (module, name) not in self._allowed:
            raise pickle.UnpicklingError(
                'refusing to load {}.{} from an NPZ file'.format(
                    module, name))
        return super().find_class(module, name)


def _read_object_array(npz, key):
    # numpy.load refuses pickled (object) arrays without allow_pickle;
    # they hold None (or builtin values) in files of Chainer.
    members = set(npz.zip.namelist())
    member = key + '.npy' if key + '.npy' in members else key
    with npz.zip.open(member) as f:
        version = numpy.lib.format.read_magic(f)
        if version == (1, 0):
            numpy.lib.format.read_array_header_1_0(f)
        else:
            numpy.lib.format.read_array_header_2_0(f)
        return _SafeUnpickler(f).load()


def _read_entry(npz, key, source):
    # The saved array of ``key``, or None if None was saved.
    if key not in npz:
        raise KeyError('{!r} is not found in {}'.format(key, source))
    try:
        try:
            data = npz[key]
        except ValueError as e:
            if 'allow_pickle' not in str(e) \
                    or not isinstance(npz, numpy.lib.npyio.NpzFile):
                raise
            data = _read_object_array(npz, key)
    except (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error,
            pickle.UnpicklingError) as e:
        raise _common.damaged('cannot read {!r} from {}: {}'.format(
            key, source, _common.reason(e)), e) from e
    data = numpy.asarray(data)
    if data.dtype == object and data.ndim == 0 and data[()] is None:
        return None
    return data


def _npz_name(npz):
    archive = getattr(npz, 'zip', None)
    name = getattr(archive, 'filename', None)
    return name if name else 'the NPZ archive'


class NpzDeserializer(_common.LoadsOnce, serializer.Deserializer):
    """Deserializer that loads values from an NPZ archive.

    Args:
        npz: The archive opened by :func:`numpy.load`, or any mapping of
            keys to arrays.
        path (str): Prefix of the keys to read, ending with ``'/'`` unless
            empty.
        strict (bool): If ``False``, keys missing in the archive are
            skipped (the object keeps its value) instead of raising
            ``KeyError``.
        ignore_names (str, callable or list of them): Keys to skip: a key
            equal to a string or for which a callable returns ``True``.

    :meth:`load` applies all or nothing: if ``serialize`` raises, the
    arrays written and the attributes changed are put back (see
    :mod:`chainer.serializers._rollback`). Calling ``obj.serialize``
    with the deserializer directly loads without this.
    """

    def __init__(self, npz, path='', strict=True, ignore_names=None):
        self.npz = npz
        self.path = path
        self.strict = strict
        self.ignore_names = [] if ignore_names is None else ignore_names
        self._source = _npz_name(npz)
        self._loading = _common.Loading()

    def __getitem__(self, key):
        child = copy.copy(self)
        child.path = self.path + key.strip('/') + '/'
        return child

    def __call__(self, key, value):
        key = self.path + key.lstrip('/')
        if not self.strict and key not in self.npz:
            return value
        if _common.ignored(key, self.ignore_names):
            return value
        data = _read_entry(self.npz, key, self._source)
        return _common.load_value(
            key, data, value, self._source, self._loading.journal)


def _open_npz(file, source):
    try:
        npz = numpy.load(file, allow_pickle=False)
    except ValueError as e:
        if 'allow_pickle' not in str(e):
            raise ValueError(
                '{} is not a readable NPZ file: {}'.format(source, e)) from e
        # Neither a ZIP archive nor an NPY file: NumPy would read it as a
        # pickle, and Chainer's load fails there.
        raise _common.damaged(
            '{} is not a readable NPZ file: it is not a ZIP archive'
            .format(source), pickle.UnpicklingError()) from e
    except (EOFError, zipfile.BadZipFile, zlib.error) as e:
        raise _common.damaged(
            '{} is not a readable NPZ file: {}'.format(
                source, _common.reason(e)), e) from e
    if not isinstance(npz, numpy.lib.npyio.NpzFile):
        raise _common.damaged(
            '{} is not an NPZ archive (it holds a single array)'
            .format(source), TypeError())
    return npz


def load_npz(file, obj, path='', strict=True, ignore_names=None):
    """Loads an object from an NPZ file.

    The object's ``serialize`` is called once; values are copied in as it
    asks for them. If a key is missing, an array has another shape (even
    one that broadcasts) or a dtype that does not cast, or an entry is
    damaged, the error names the key and the file, and the object is left
    exactly as it was: the load applies entirely or not at all.

    Args:
        file (str, os.PathLike or file object): The file to read.
        obj: The object to load into, with a ``serialize`` method.
        path (str): Prefix of the keys to read, e.g.
            ``'updater/model:main/'`` to load a model out of a trainer
            snapshot.
        strict (bool): If ``False``, keys missing in the file are skipped.
        ignore_names (str, callable or list of them): Keys to skip.

    Raises:
        KeyError: If a key is missing (with ``strict=True``).
        ValueError: If the file cannot be read or an array has the wrong
            shape. For a damaged file the error is also of the type that
            Chainer raises then (:class:`zipfile.BadZipFile`,
            :class:`EOFError`, :class:`pickle.UnpicklingError`).
        TypeError: If a value cannot be converted to the type of the
            target.

    Example:
        Loading them into a link of the same structure::

            chainer.serializers.load_npz('model.npz', model)
    """
    source = _common.source_name(file)
    with _open_npz(file, source) as npz:
        d = NpzDeserializer(
            npz, path=path, strict=strict, ignore_names=ignore_names)
        d._source = source
        d.load(obj)
