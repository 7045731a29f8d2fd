"""A dataset stored as a sequence of pickles in one file."""

import io
import multiprocessing.util
import pickle
import threading

from chainer.dataset import dataset_mixin


class PickleDatasetWriter:
    """Writes examples, one pickle each, to a file for :class:`PickleDataset`.

    Args:
        writer: A binary file object open for writing.
        protocol (int): The pickle protocol.
    """

    def __init__(self, writer, protocol=pickle.HIGHEST_PROTOCOL):
        self._positions = []
        self._writer = writer
        self._protocol = protocol

    def close(self):
        """Closes the file."""
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def write(self, x):
        """Appends an example.

        Args:
            x: The example (any picklable object).
        """
        position = self._writer.tell()
        pickle.dump(x, self._writer, protocol=self._protocol)
        self._positions.append(position)

    def flush(self):
        """Flushes the file, if it can be flushed."""
        if hasattr(self._writer, 'flush'):
            self._writer.flush()


class PickleDataset(dataset_mixin.DatasetMixin):
    """Dataset of the pickles written one after another in a file.

    The file is scanned once to find where each pickle starts; an example
    is unpickled when accessed. Accesses are serialized by a lock, so the
    dataset can be shared by threads. In a process forked by
    :mod:`multiprocessing` the reader's ``after_fork`` method, if any, is
    called so that it can reopen its file (see
    :func:`open_pickle_dataset`).

    .. warning::
        Unpickling runs arbitrary code: only read files you trust.

    Args:
        reader: A seekable binary file object open for reading.

    Raises:
        ValueError: If ``reader`` cannot seek.
    """

    def __init__(self, reader):
        if not reader.seekable():
            raise ValueError('reader must support random access')
        self._reader = reader
        self._positions = []
        reader.seek(0)
        while True:
            position = reader.tell()
            try:
                pickle.load(reader)
            except EOFError:
                break
            self._positions.append(position)
        self._lock = threading.RLock()
        self._register_hook()

    def _register_hook(self):
        multiprocessing.util.register_after_fork(
            self, PickleDataset._after_fork)

    def _after_fork(self):
        after_fork = getattr(self._reader, 'after_fork', None)
        if callable(after_fork):
            after_fork()

    def __getstate__(self):
        state = self.__dict__.copy()
        del state['_lock']
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.RLock()
        self._register_hook()

    def close(self):
        """Closes the reader."""
        with self._lock:
            self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __len__(self):
        return len(self._positions)

    def get_example(self, index):
        with self._lock:
            self._reader.seek(self._positions[index])
            return pickle.load(self._reader)


class _FileReader(io.RawIOBase):
    """A read-only file that reopens itself after a fork or an unpickling.

    Forked processes would otherwise share one file offset with the parent.
    """

    def __init__(self, path):
        super().__init__()
        self._path = path
        self._fp = None
        self._open()

    def _open(self):
        self._fp = open(self._path, 'rb')

    def after_fork(self):
        """Reopens the file, giving this process its own offset."""
        self.close()
        self._open()

    def __getstate__(self):
        state = self.__dict__.copy()
        del state['_fp']
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._open()

    def flush(self):
        self._fp.flush()

    def close(self):
        self._fp.close()

    def fileno(self):
        return self._fp.fileno()

    def readable(self):
        return True

    def seekable(self):
        return self._fp.seekable()

    def seek(self, offset, whence=io.SEEK_SET):
        return self._fp.seek(offset, whence)

    def tell(self):
        return self._fp.tell()

    def readinto(self, b):
        return self._fp.readinto(b)


def open_pickle_dataset(path):
    """Opens a :class:`PickleDataset` on a file.

    The file is reopened in processes forked by :mod:`multiprocessing`
    (e.g. the workers of :class:`~chainer.iterators.MultiprocessIterator`),
    so that they do not disturb each other's reads.

    Args:
        path (str): The path of the file.

    Returns:
        PickleDataset: The dataset.
    """
    return PickleDataset(_FileReader(path))


def open_pickle_dataset_writer(path, protocol=pickle.HIGHEST_PROTOCOL):
    """Opens a :class:`PickleDatasetWriter` on a new file.

    Args:
        path (str): The path of the file, created or truncated.
        protocol (int): The pickle protocol.

    Returns:
        PickleDatasetWriter: The writer.
    """
    return PickleDatasetWriter(open(path, 'wb'), protocol=protocol)
