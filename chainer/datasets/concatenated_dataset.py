"""A dataset made of several datasets one after another."""

from chainer.dataset import dataset_mixin


class ConcatenatedDataset(dataset_mixin.DatasetMixin):
    """Dataset concatenating several datasets.

    The examples of the first dataset come first, then those of the second,
    and so on.

    Args:
        datasets: The datasets to concatenate.
    """

    def __init__(self, *datasets):
        self._datasets = datasets

    def __len__(self):
        return sum(len(dataset) for dataset in self._datasets)

    def get_example(self, i):
        if i < 0:
            raise IndexError
        for dataset in self._datasets:
            n = len(dataset)
            if i < n:
                return dataset[i]
            i -= n
        raise IndexError
