"""A dataset applying a function to the examples of another."""

from chainer.dataset import dataset_mixin


class TransformDataset(dataset_mixin.DatasetMixin):
    """Dataset applying a function to each example of a dataset.

    The function runs each time an example is read, so it may be random
    (data augmentation). It receives the example of the base dataset and
    returns the transformed one.

    Example:
        >>> from chainer.datasets import TransformDataset
        >>> base = [1, 2, 3]
        >>> dataset = TransformDataset(base, lambda x: x * 10)
        >>> dataset[1]
        20

    Args:
        dataset: The base dataset.
        transform (callable): The function applied to each example.
    """

    def __init__(self, dataset, transform):
        self._dataset = dataset
        self._transform = transform

    def __len__(self):
        return len(self._dataset)

    def get_example(self, i):
        return self._transform(self._dataset[i])
