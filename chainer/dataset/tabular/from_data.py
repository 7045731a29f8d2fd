"""Tabular datasets made of lists, arrays and functions (``from_data``)."""

import itertools

import chainer
from chainer.dataset.tabular import tabular_dataset


def from_data(data, *, size=None):
    """Makes a tabular dataset of lists, arrays and functions.

    ``data`` takes one of these forms:

    - a list or an array: a dataset of one column (mode ``None``);
    - ``(key, column)``: the same, with a name; ``column`` may also be a
      function ``f(i)`` giving the ``i``-th value;
    - ``((key, ...), f)``: the columns computed by ``f(i)``, which returns
      a tuple or a dict (the mode of the dataset);
    - a tuple of the forms above: their columns side by side, in mode
      :class:`tuple`;
    - a dict ``{key: column, (key, ...): f, ...}``: likewise, in mode
      :class:`dict`.

    A column given without a name gets a unique one.

    Example:
        >>> from chainer.dataset import tabular
        >>> tabular.from_data([3, 1, 4])[2]
        4
        >>> dataset = tabular.from_data((('x', [3, 1, 4]), ('y', [1, 5, 9])))
        >>> dataset.keys, dataset[1]
        (('x', 'y'), (1, 5))
        >>> sorted(tabular.from_data({'x': [3, 1], 'y': [4, 1]})[0].items())
        [('x', 3), ('y', 4)]
        >>> tabular.from_data(('square', lambda i: i * i), size=5)[3]
        9

    Args:
        data: The columns, in a form above.
        size (int): The number of rows. It is needed only when no column
            is a list or an array (the length of the first one is used).

    Returns:
        ~chainer.dataset.TabularDataset: The dataset.

    Raises:
        ValueError: A function comes without a name, or the size is not
            known.
        TypeError: A column is neither a list, an array nor a callable.
    """
    if isinstance(data, tuple):
        if len(data) == 2 and _is_key(data[0]):
            return _make_dataset(data[0], data[1], size)
        entries = [entry if isinstance(entry, tuple) else (None, entry)
                   for entry in data]
        return _join(entries, size).astuple()
    if isinstance(data, dict):
        return _join(list(data.items()), size).asdict()
    return _make_dataset(None, data, size)


def _is_key(key):
    # A column name, or the names of the columns a function computes.
    if isinstance(key, str):
        return True
    return isinstance(key, tuple) and all(isinstance(k, str) for k in key)


def _join(entries, size):
    if size is None:
        size = next((len(column) for _, column in entries
                     if not callable(column) and hasattr(column, '__len__')),
                    None)
    datasets = [_make_dataset(key, column, size) for key, column in entries]
    return datasets[0].join(*datasets[1:])


_unnamed = itertools.count()


def _name(key):
    # The given key, or a new unique one for a column given without.
    return key if key is not None else '_{}'.format(next(_unnamed))


def _make_dataset(key, column, size):
    if isinstance(column, chainer.get_array_types()):
        return _Array(_name(key), column)
    if isinstance(column, list):
        return _List(_name(key), column)
    if callable(column):
        if key is None:
            raise ValueError('key(s) must be specified for callable')
        if size is None:
            raise ValueError('size must be specified for callable')
        return _Index(size).transform(key, column)
    raise TypeError(
        'a column must be a list, an array or a callable, not {}'.format(
            type(column).__name__))


class _Column(tabular_dataset.TabularDataset):
    """A dataset of one named column held in memory."""

    def __init__(self, key, data):
        self._key = key
        self._data = data

    def __len__(self):
        return len(self._data)

    @property
    def keys(self):
        return (self._key,)

    @property
    def mode(self):
        return None

    def get_examples(self, indices, key_indices):
        column = self._data if indices is None else self._take(indices)
        n_columns = 1 if key_indices is None else len(key_indices)
        return (column,) * n_columns


class _Array(_Column):
    """A column held in an array (NumPy or CuPy)."""

    def _take(self, indices):
        return self._data[indices]


class _List(_Column):
    """A column held in a list."""

    def _take(self, indices):
        if isinstance(indices, slice):
            return self._data[indices]
        return [self._data[index] for index in indices]


class _Index(_Column):
    """The column of row numbers, ``[0, 1, ..., size - 1]``."""

    def __init__(self, size):
        super().__init__('index', range(size))

    def get_examples(self, indices, key_indices):
        if indices is None:
            indices = slice(None)
        return super().get_examples(indices, key_indices)

    def _take(self, indices):
        if isinstance(indices, slice):
            return list(self._data[indices])
        return indices
