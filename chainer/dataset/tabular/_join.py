"""The view that puts tabular datasets side by side (``join``)."""

from chainer.dataset.tabular import tabular_dataset


class _Join(tabular_dataset.TabularDataset):
    """The columns of several datasets of the same length.

    Its mode is the first mode among the datasets that is not ``None``
    (:class:`tuple` when all are ``None``); a read asks each dataset only
    for the columns it owns.
    """

    def __init__(self, *datasets):
        size = len(datasets[0])
        seen = set()
        for dataset in datasets:
            if len(dataset) != size:
                raise ValueError('All datasets must have the same length')
            if seen.intersection(dataset.keys):
                raise ValueError('All keys must be unique among all datasets')
            seen.update(dataset.keys)
        self._datasets = datasets

    def __len__(self):
        return len(self._datasets[0])

    @property
    def keys(self):
        return tuple(key for dataset in self._datasets
                     for key in dataset.keys)

    @property
    def mode(self):
        for dataset in self._datasets:
            if dataset.mode:
                return dataset.mode
        return tuple

    def get_examples(self, indices, key_indices):
        if key_indices is None:
            return tuple(column for dataset in self._datasets
                         for column in dataset.get_examples(indices, None))
        columns = {}
        offset = 0
        for dataset in self._datasets:
            n_keys = len(dataset.keys)
            local = tuple(dict.fromkeys(
                key_index - offset for key_index in key_indices
                if offset <= key_index < offset + n_keys))
            if local:
                read = dataset.get_examples(indices, local)
                for key_index, column in zip(local, read):
                    columns[offset + key_index] = column
            offset += n_keys
        return tuple(columns[key_index] for key_index in key_indices)

    def convert(self, data):
        return self._datasets[0].convert(data)
