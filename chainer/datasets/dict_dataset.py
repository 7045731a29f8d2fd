"""A dataset of dicts, zipping several named datasets."""


class DictDataset:
    """Dataset whose examples are dicts of the others' examples.

    ``DictDataset(x=xs, t=ts)[i]`` is ``{'x': xs[i], 't': ts[i]}``; a slice
    gives a list of such dicts. Every dataset given must be equally long.

    Args:
        datasets: The datasets, by key.

    Raises:
        ValueError: If no dataset is given or the lengths differ.
    """

    def __init__(self, **datasets):
        if not datasets:
            raise ValueError('no datasets are given')
        length = None
        for key, dataset in datasets.items():
            if length is None:
                length = len(dataset)
            elif len(dataset) != length:
                raise ValueError(
                    'dataset length conflicts at "{}"'.format(key))
        self._datasets = datasets
        self._length = length

    def __getitem__(self, index):
        batches = {key: dataset[index]
                   for key, dataset in self._datasets.items()}
        if isinstance(index, slice):
            keys = list(batches)
            return [dict(zip(keys, values))
                    for values in zip(*batches.values())]
        return batches

    def __len__(self):
        return self._length
