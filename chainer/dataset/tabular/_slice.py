"""The view of some rows and columns of a tabular dataset (``slice``)."""

import numbers

import numpy

from chainer.dataset.tabular import _view


class _Slice(_view._View):
    """Rows and columns chosen from a dataset.

    The rows are kept as a slice or as a list of non-negative indices into
    the dataset, the columns as a tuple of positions in its keys (``None``
    for all of them); reading the view reads the composed selection from
    the dataset in one call.
    """

    def __init__(self, dataset, indices, keys):
        super().__init__(dataset)
        if keys is None:
            self._single_key = None
        elif isinstance(keys, tuple):
            self._single_key = False
        else:
            self._single_key = True
            keys = (keys,)
        self._indices = _normalize_indices(indices, len(dataset))
        self._key_indices = _normalize_keys(keys, dataset.keys)

    def __len__(self):
        if isinstance(self._indices, slice):
            return len(range(*self._indices.indices(len(self._dataset))))
        return len(self._indices)

    @property
    def keys(self):
        keys = self._dataset.keys
        if self._key_indices is None:
            return keys
        return tuple(keys[key_index] for key_index in self._key_indices)

    @property
    def mode(self):
        if self._single_key is None:
            return self._dataset.mode
        if self._single_key:
            return None
        return self._dataset.mode or tuple

    def get_examples(self, indices, key_indices):
        if indices is None:
            indices = self._indices
        else:
            indices = _compose_indices(
                self._indices, indices, len(self._dataset))
        if key_indices is None:
            key_indices = self._key_indices
        elif self._key_indices is not None:
            key_indices = tuple(self._key_indices[key_index]
                                for key_index in key_indices)
        return self._dataset.get_examples(indices, key_indices)


class _SliceHelper:
    """The object behind :attr:`TabularDataset.slice`."""

    def __init__(self, dataset):
        self._dataset = dataset

    def __getitem__(self, args):
        if isinstance(args, tuple):
            indices, keys = args
        else:
            indices, keys = args, None
        return _Slice(self._dataset, indices, keys)


def _normalize_indices(indices, size):
    # A slice stays a slice; a boolean mask or a sequence of integers
    # becomes a list of non-negative indices.
    if isinstance(indices, slice):
        return indices
    if len(indices) == 0:
        return []
    if _is_mask(indices):
        if len(indices) != size:
            raise ValueError('The number of booleans is '
                             'different from the length of dataset')
        return [i for i, selected in enumerate(indices) if selected]
    normalized = []
    for index in indices:
        index = int(index)
        position = index + size if index < 0 else index
        if not 0 <= position < size:
            raise IndexError(
                'index {} is out of bounds for dataset with size {}'.format(
                    index, size))
        normalized.append(position)
    return normalized


def _is_mask(indices):
    if isinstance(indices, numpy.ndarray):
        return indices.dtype == numpy.bool_
    return all(isinstance(index, (bool, numpy.bool_)) for index in indices)


def _normalize_keys(keys, key_names):
    # Key names and (possibly negative) key positions become positions.
    if keys is None:
        return None
    key_indices = []
    for key in keys:
        if isinstance(key, numbers.Integral):
            position = key + len(key_names) if key < 0 else key
            if not 0 <= position < len(key_names):
                raise IndexError(
                    'index {} is out of bounds for keys with size {}'.format(
                        key, len(key_names)))
        else:
            try:
                position = key_names.index(key)
            except ValueError:
                raise KeyError('{} does not exists'.format(key)) from None
        key_indices.append(int(position))
    return tuple(key_indices)


def _compose_indices(outer, inner, size):
    # The rows of the dataset (of ``size`` rows) that ``inner`` selects
    # among the rows ``outer`` selects.
    if not isinstance(outer, slice):
        if isinstance(inner, slice):
            return outer[inner]
        return [outer[index] for index in inner]
    rows = range(size)[outer]
    if not isinstance(inner, slice):
        return [rows[index] for index in inner]
    rows = rows[inner]
    if len(rows) == 0:
        return slice(0, 0)
    stop = rows.stop
    if rows.step < 0 and stop < 0:
        stop = None
    return slice(rows.start, stop, rows.step)
