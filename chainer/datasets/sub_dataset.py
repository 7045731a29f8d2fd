"""Views of a part of a dataset, and the ways to split a dataset."""

import numbers
import warnings

import numpy

from chainer.dataset import dataset_mixin


class SubDataset(dataset_mixin.DatasetMixin):
    """A contiguous part of a dataset, possibly seen through a permutation.

    The example ``i`` of the subset is ``dataset[start + i]``, or
    ``dataset[order[start + i]]`` when an order is given, for ``0 <= i <
    finish - start``; negative indices count from the end of the subset.
    No example is copied.

    Args:
        dataset: The base dataset.
        start (int): The first position of the subset.
        finish (int): The position just after the subset.
        order (sequence of ints): A permutation of the base dataset's
            indices, as long as the base dataset, or ``None``.

    Raises:
        ValueError: If the subset overruns the base dataset or ``order``
            has the wrong length.
    """

    def __init__(self, dataset, start, finish, order=None):
        if start < 0 or finish > len(dataset):
            raise ValueError('subset overruns the base dataset.')
        if order is not None and len(order) != len(dataset):
            raise ValueError(
                'order option must have the same length as the base '
                'dataset: len(order) = {} while len(dataset) = {}'.format(
                    len(order), len(dataset)))
        self._dataset = dataset
        self._start = start
        self._finish = finish
        self._size = finish - start
        self._order = order

    def __len__(self):
        return self._size

    def get_example(self, i):
        if not -self._size <= i < self._size:
            raise IndexError('dataset index out of range')
        index = self._start + i if i >= 0 else self._finish + i
        if self._order is not None:
            index = self._order[index]
        return self._dataset[index]


def split_dataset(dataset, split_at, order=None):
    """Splits a dataset in two at a position.

    Args:
        dataset: The dataset.
        split_at (int): The size of the first part.
        order (sequence of ints): A permutation of the indices to split in
            place of the natural order, or ``None``.

    Returns:
        tuple: Two :class:`SubDataset`: the examples before ``split_at`` and
        those from it on.

    Raises:
        TypeError: If ``split_at`` is not an integer.
        ValueError: If ``split_at`` is negative or beyond the dataset.
    """
    if not isinstance(split_at, numbers.Integral):
        raise TypeError('split_at must be int, got {} instead'
                        .format(type(split_at)))
    n_examples = len(dataset)
    if split_at < 0:
        raise ValueError('split_at must be non-negative')
    if split_at > n_examples:
        raise ValueError('split_at exceeds the dataset size')
    return (SubDataset(dataset, 0, split_at, order),
            SubDataset(dataset, split_at, n_examples, order))


def split_dataset_random(dataset, first_size, seed=None):
    """Splits a dataset in two at random.

    The order is a permutation drawn by ``numpy.random.RandomState(seed)``,
    so a seed makes the split reproducible.

    Args:
        dataset: The dataset.
        first_size (int): The size of the first part.
        seed (int): The seed of the permutation.

    Returns:
        tuple: Two :class:`SubDataset`.
    """
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset(dataset, first_size, order)


def split_dataset_n(dataset, n, order=None):
    """Splits a dataset into ``n`` parts of equal size.

    Each part has ``len(dataset) // n`` examples; the last
    ``len(dataset) % n`` examples are left out.

    Args:
        dataset: The dataset.
        n (int): The number of parts.
        order (sequence of ints): A permutation of the indices, or
            ``None``.

    Returns:
        list: ``n`` :class:`SubDataset`.
    """
    size = len(dataset) // n
    return [SubDataset(dataset, size * i, size * (i + 1), order)
            for i in range(n)]


def split_dataset_n_random(dataset, n, seed=None):
    """Splits a dataset into ``n`` parts of equal size at random.

    Args:
        dataset: The dataset.
        n (int): The number of parts.
        seed (int): The seed of the permutation.

    Returns:
        list: ``n`` :class:`SubDataset`.
    """
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset_n(dataset, n, order)


def _n_folds_argument(n_folds, kwargs):
    if 'n_fold' in kwargs:
        warnings.warn(
            'Argument `n_fold` is deprecated. '
            'Please use `n_folds` instead',
            DeprecationWarning)
        return kwargs['n_fold']
    return n_folds


def get_cross_validation_datasets(dataset, n_folds=None, order=None,
                                  **kwargs):
    """Makes the (training, validation) pairs of a k-fold cross validation.

    The dataset (in ``order``) is cut into ``n_folds`` folds of sizes
    differing by at most one; pair ``k`` validates on one fold and trains
    on the others. Each pair is a :func:`split_dataset` of a rotation of
    the order: the training part comes first, the validation fold last.

    Args:
        dataset: The dataset.
        n_folds (int): The number of folds.
        order (sequence of ints): A permutation of the indices, or
            ``None``.

    Returns:
        list: ``n_folds`` pairs ``(train, validation)`` of
        :class:`SubDataset`.
    """
    n_folds = _n_folds_argument(n_folds, kwargs)
    if order is None:
        order = numpy.arange(len(dataset))
    else:
        order = numpy.array(order)
    whole_size = len(dataset)
    borders = [whole_size * i // n_folds for i in range(n_folds + 1)]
    splits = []
    for k in reversed(range(n_folds)):
        test_size = borders[k + 1] - borders[k]
        splits.append(split_dataset(dataset, whole_size - test_size, order))
        # Bring the next fold to the end of the order.
        order = numpy.concatenate(
            (order[whole_size - test_size:], order[:whole_size - test_size]))
    return splits


def get_cross_validation_datasets_random(dataset, n_folds, seed=None,
                                         **kwargs):
    """Makes the pairs of a k-fold cross validation on a random order.

    Args:
        dataset: The dataset.
        n_folds (int): The number of folds.
        seed (int): The seed of the permutation.

    Returns:
        list: ``n_folds`` pairs ``(train, validation)`` of
        :class:`SubDataset`.
    """
    n_folds = _n_folds_argument(n_folds, kwargs)
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return get_cross_validation_datasets(dataset, n_folds, order)
