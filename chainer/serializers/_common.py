"""What the NPZ and HDF5 serializers share.

Loading is one pass over the object, as in Chainer: each value is
checked (the key is there, the saved array has the target's shape and a
dtype that casts to the target's) and copied in as ``serialize`` asks for
it. If the pass fails, what it changed is undone (see
:mod:`chainer.serializers._rollback`), so a load applies entirely or not
at all. Errors name the key and the file.

Saving to a path writes a temporary file beside it and renames it over the
path, so a crash never leaves a half-written file under the final name.
"""

import contextlib
import os
import secrets
import stat

import numpy

from chainer import backend
from chainer.backends import cuda
from chainer.serializers import _rollback


def source_name(file):
    """Returns how errors name a file given as a path or a file object."""
    if isinstance(file, (str, bytes, os.PathLike)):
        return os.fsdecode(file)
    name = getattr(file, 'name', None)
    if isinstance(name, str):
        return name
    return repr(file)


def is_path(file):
    """Whether ``file`` is a path rather than a file object."""
    return isinstance(file, (str, bytes, os.PathLike))


@contextlib.contextmanager
def atomic_path(path):
    """Yields a temporary path that replaces ``path`` when the block ends.

    The temporary file lies in the same directory, so the final
    :func:`os.replace` is atomic. If the block raises, the temporary file
    is removed and ``path`` is left as it was. As when a file is written in
    place, a symbolic link is written through (the file it points to is
    replaced, the link stays) and an existing file keeps its permissions.

    Args:
        path (str or os.PathLike): The final path.
    """
    path = os.path.realpath(os.fsdecode(path))
    directory, base = os.path.split(path)
    while True:
        tmp = os.path.join(
            directory, '.{}.{}.tmp'.format(base, secrets.token_hex(4)))
        try:
            open(tmp, 'xb').close()
            break
        except FileExistsError:
            continue
    try:
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))
        yield tmp
        with open(tmp, 'rb') as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise


_error_types = {}


def damaged(message, cause):
    """Returns the error for a file or an entry that cannot be read.

    It is a ``ValueError`` and also of the type of ``cause`` (such as
    :class:`zipfile.BadZipFile` or :class:`OSError`), the error that
    Chainer lets through in that case.

    Args:
        message (str): What cannot be read, and why.
        cause (Exception): The error of the reader.
    """
    base = type(cause)
    if issubclass(base, ValueError):
        return ValueError(message)
    error_type = _error_types.get(base)
    if error_type is None:
        error_type = _error_types[base] = type(
            base.__name__, (ValueError, base), {'__module__': __name__})
    return error_type(message)


def reason(error):
    """Returns the message of ``error``, or its type if it has none."""
    return str(error) or type(error).__name__


def _error_prefix(key, source):
    return 'cannot load {!r} from {}: '.format(key, source)


def _check_array(key, data, value, source):
    if data.shape != value.shape:
        raise ValueError(
            _error_prefix(key, source)
            + 'the saved array has shape {} but the target has shape {}'
            .format(data.shape, value.shape))
    if not numpy.can_cast(data.dtype, value.dtype, casting='same_kind'):
        raise TypeError(
            _error_prefix(key, source)
            + 'the saved dtype {} cannot be cast to the target dtype {}'
            .format(data.dtype, value.dtype))


def _convert(key, data, value, source):
    # A value that is not an array takes the type of the value given.
    value_type = type(value)
    kind = data.dtype.type
    if (issubclass(kind, numpy.number)
            and not (issubclass(kind, numpy.integer) and value_type is int)
            and not numpy.can_cast(data.dtype, value_type, casting='safe')):
        raise TypeError(
            'Cannot safely deserialize from numpy array with dtype={} '
            'into a variable of type {} (key {!r} of {}).'.format(
                data.dtype, value_type, key, source))
    try:
        return value_type(data)
    except (TypeError, ValueError) as e:
        raise type(e)(_error_prefix(key, source) + str(e)) from e


def load_value(key, data, value, source, journal=None):
    """Returns what a deserializer returns for one requested value.

    An array given is written in place; its shape must be the saved one
    (no broadcasting) and the saved dtype must cast to its dtype as
    :func:`numpy.copyto` casts by default (``'same_kind'``: ``float64`` data
    load into a ``float32`` array, ``complex`` data do not).

    Args:
        key (str): Full key of the value, for error messages.
        data: The saved array (NumPy), or ``None`` if ``None`` was saved.
        value: The value given by ``serialize``: an array to copy into,
            ``None`` to get the saved array, or a scalar whose type the
            result takes.
        source (str): The file, for error messages.
        journal (~chainer.serializers._rollback.Journal): The journal of
            the load in progress, told before an array is overwritten.

    Returns:
        The loaded value.
    """
    if data is None:
        return None
    if value is None:
        return data
    if isinstance(value, (numpy.ndarray, cuda.ndarray)):
        _check_array(key, data, value, source)
        if journal is not None:
            journal.before_write(value)
        backend.copyto(value, data)
        return value
    return _convert(key, data, value, source)


class Loading:
    """The load in progress, shared by a deserializer and its children."""

    def __init__(self):
        self.journal = None

    def run(self, deserializer, obj):
        """Loads ``obj``; if that fails, undoes what it changed.

        Args:
            deserializer: The deserializer to give ``obj.serialize``.
            obj: The object to load.
        """
        if self.journal is not None:
            # A load inside a load: the outer one undoes both.
            obj.serialize(deserializer)
            return
        self.journal = _rollback.Journal(obj)
        try:
            obj.serialize(deserializer)
        except BaseException:
            self.journal.undo()
            raise
        finally:
            self.journal = None


class LoadsOnce:
    """The ``load`` of the deserializers: all or nothing.

    A deserializer with this base keeps its :class:`Loading` in
    ``_loading``.
    """

    def load(self, obj):
        """Loads an object by calling its ``serialize`` method once.

        If it raises, the object is left as it was.

        Args:
            obj: An object with a ``serialize(serializer)`` method.
        """
        self._loading.run(self, obj)


def ignored(key, ignore_names):
    """Whether ``key`` matches one of ``ignore_names``.

    Args:
        key (str): Full key.
        ignore_names: A string, a callable taking the key, or a list or
            tuple of them.
    """
    if not isinstance(ignore_names, (tuple, list)):
        ignore_names = (ignore_names,)
    for name in ignore_names:
        if isinstance(name, str):
            if key == name:
                return True
        elif callable(name):
            if name(key):
                return True
        else:
            raise ValueError(
                'ignore_names needs to be a callable, string or '
                'list of them.')
    return False
