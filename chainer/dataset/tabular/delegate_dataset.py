"""A base class for tabular datasets built on another one."""

from chainer.dataset.tabular import tabular_dataset


class DelegateDataset(tabular_dataset.TabularDataset):
    """A tabular dataset that answers with the one it wraps.

    Inherit from it to give a pipeline of views its own class: build the
    pipeline in ``__init__`` and pass it to ``super().__init__``. Length,
    keys, mode and reads come from the wrapped dataset; :meth:`convert` is
    the default one of :class:`~chainer.dataset.TabularDataset`, as in
    Chainer.

    Example:
        >>> import numpy as np
        >>> from chainer.dataset import tabular
        >>> class Squares(tabular.DelegateDataset):
        ...     def __init__(self, n):
        ...         super().__init__(tabular.from_data(
        ...             (('x', np.arange(n)), ('y', self.square)), size=n))
        ...     def square(self, i):
        ...         return i * i
        >>> squares = Squares(5)
        >>> squares.keys
        ('x', 'y')
        >>> [int(v) for v in squares[3]]
        [3, 9]

    Args:
        dataset (~chainer.dataset.TabularDataset): The wrapped dataset.

    Attributes:
        dataset (~chainer.dataset.TabularDataset): The wrapped dataset.
    """

    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    @property
    def keys(self):
        return self.dataset.keys

    @property
    def mode(self):
        return self.dataset.mode

    def get_examples(self, indices, key_indices):
        return self.dataset.get_examples(indices, key_indices)
