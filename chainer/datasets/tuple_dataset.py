"""A dataset of tuples, zipping several datasets."""


class TupleDataset:
    """Dataset whose examples are tuples of the others' examples.

    ``TupleDataset(xs, ys)[i]`` is ``(xs[i], ys[i])``; a slice gives a list
    of such tuples. All the datasets (arrays, lists, or datasets) must have
    the same length.

    Args:
        datasets: The datasets to zip.

    Raises:
        ValueError: If no dataset is given or the lengths differ.
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError('no datasets are given')
        length = len(datasets[0])
        for i, dataset in enumerate(datasets):
            if len(dataset) != length:
                raise ValueError(
                    'dataset of the index {} has a wrong length'.format(i))
        self._datasets = datasets
        self._length = length

    def __getitem__(self, index):
        batches = [dataset[index] for dataset in self._datasets]
        if isinstance(index, slice):
            return list(zip(*batches))
        return tuple(batches)

    def __len__(self):
        return self._length
