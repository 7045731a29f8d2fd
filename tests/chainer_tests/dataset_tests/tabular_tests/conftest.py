import numpy
import pytest

import chainer


class Table(chainer.dataset.TabularDataset):
    """A table of known values that records every read.

    Column ``k`` of row ``i`` holds ``100 * k + i``. Columns are lists, or
    arrays with ``as_array``.
    """

    def __init__(self, size=10, keys=('a', 'b', 'c'), mode=tuple,
                 as_array=False):
        if mode is None:
            keys = keys[:1]
        self._keys = keys
        self._mode = mode
        self._as_array = as_array
        self.data = (100 * numpy.arange(len(keys))[:, None]
                     + numpy.arange(size))
        self.reads = []

    def __len__(self):
        return self.data.shape[1]

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        self.reads.append((indices, key_indices))
        data = self.data
        if indices is not None:
            data = data[:, indices]
        if key_indices is not None:
            data = data[list(key_indices)]
        if self._as_array:
            return tuple(data)
        return tuple(column.tolist() for column in data)


@pytest.fixture
def make_table():
    return Table
