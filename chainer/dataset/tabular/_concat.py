"""The view that stacks tabular datasets row-wise (``concat``)."""

import bisect
import itertools

from chainer.dataset.tabular import tabular_dataset


class _Concat(tabular_dataset.TabularDataset):
    """The rows of several datasets with the same keys, one after another.

    A read is split into one read per dataset holding some of the requested
    rows. When a single dataset holds them all, its columns are returned as
    they come (arrays stay arrays); otherwise the pieces are gathered into
    lists.
    """

    def __init__(self, *datasets):
        keys = datasets[0].keys
        for dataset in datasets[1:]:
            if dataset.keys != keys:
                raise ValueError('All datasets must have the same keys')
        self._datasets = datasets
        self._ends = list(itertools.accumulate(
            len(dataset) for dataset in datasets))

    def __len__(self):
        return self._ends[-1]

    @property
    def keys(self):
        return self._datasets[0].keys

    @property
    def mode(self):
        return self._datasets[0].mode

    def get_examples(self, indices, key_indices):
        if key_indices is None:
            n_columns = len(self.keys)
        else:
            n_columns = len(key_indices)
        if indices is None:
            return _gather([dataset.get_examples(None, key_indices)
                            for dataset in self._datasets], n_columns)
        if isinstance(indices, slice):
            return self._get_slice(indices, key_indices, n_columns)
        return self._get_list(indices, key_indices, n_columns)

    def _get_slice(self, indices, key_indices, n_columns):
        start, stop, step = indices.indices(len(self))
        parts = []
        offset = 0
        for dataset, end in zip(self._datasets, self._ends):
            local = _local_slice(start - offset, stop - offset, step,
                                 end - offset)
            if local is not None:
                parts.append(dataset.get_examples(local, key_indices))
            offset = end
        if len(parts) == 1:
            return parts[0]
        if step < 0:
            parts.reverse()
        return _gather(parts, n_columns)

    def _get_list(self, indices, key_indices, n_columns):
        size = len(self)
        requests = [[] for _ in self._datasets]
        owners = []
        for index in indices:
            position = index + size if index < 0 else index
            if not 0 <= position < size:
                raise IndexError(
                    'index {} is out of bounds for dataset with size '
                    '{}'.format(index, size))
            k = bisect.bisect_right(self._ends, position)
            offset = self._ends[k - 1] if k > 0 else 0
            owners.append((k, len(requests[k])))
            requests[k].append(position - offset)
        parts = {k: self._datasets[k].get_examples(request, key_indices)
                 for k, request in enumerate(requests) if request}
        if len(parts) == 0:
            return tuple([] for _ in range(n_columns))
        if len(parts) == 1:
            return next(iter(parts.values()))
        return tuple([parts[k][column][p] for k, p in owners]
                     for column in range(n_columns))

    def convert(self, data):
        return self._datasets[0].convert(data)


def _local_slice(start, stop, step, size):
    # The part of range(start, stop, step) that falls in [0, size), as a
    # slice of a dataset of ``size`` rows, or None when the part is empty.
    if step > 0:
        if start < 0:
            start %= step
        stop = min(stop, size)
        return slice(start, stop, step) if start < stop else None
    if start >= size:
        start -= ((start - size) // -step + 1) * -step
    if start <= max(stop, -1):
        return None
    return slice(start, None if stop < 0 else stop, step)


def _gather(parts, n_columns):
    # Joins the columns of several reads into lists.
    return tuple([value for part in parts for value in part[column]]
                 for column in range(n_columns))
