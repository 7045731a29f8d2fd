import warnings

import numpy
import pytest

from chainer import datasets

DATA = list(range(10))


def test_sub_dataset_with_order():
    s = datasets.SubDataset(DATA, 2, 6, order=list(range(9, -1, -1)))
    assert len(s) == 4
    assert list(s) == [7, 6, 5, 4]
    assert s[-1] == 4 and s[-4] == 7
    assert s[1:3] == [6, 5]
    assert s[[0, 2]] == [7, 5]
    for i in (4, -5):
        with pytest.raises(IndexError, match='dataset index out of range'):
            s[i]


def test_sub_dataset_errors():
    with pytest.raises(ValueError, match='subset overruns'):
        datasets.SubDataset(DATA, 0, 11)
    with pytest.raises(ValueError, match=r'len\(order\) = 2 while '
                       r'len\(dataset\) = 10'):
        datasets.SubDataset(DATA, 0, 3, order=[1, 2])


def test_split_dataset():
    a, b = datasets.split_dataset(DATA, 3)
    assert list(a) == [0, 1, 2] and list(b) == list(range(3, 10))
    a, b = datasets.split_dataset(DATA, numpy.int64(0))
    assert len(a) == 0 and len(b) == 10
    with pytest.raises(TypeError, match='split_at must be int'):
        datasets.split_dataset(DATA, 2.0)
    with pytest.raises(ValueError, match='non-negative'):
        datasets.split_dataset(DATA, -1)
    with pytest.raises(ValueError, match='exceeds the dataset size'):
        datasets.split_dataset(DATA, 11)


# The expected orders are those of Chainer 7.8.1 with the same seeds.
def test_split_dataset_random():
    a, b = datasets.split_dataset_random(DATA, 4, seed=0)
    assert list(a) == [2, 8, 4, 9]
    assert list(b) == [1, 6, 7, 3, 0, 5]


def test_split_dataset_n():
    parts = datasets.split_dataset_n(DATA, 3)
    assert [list(p) for p in parts] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]


def test_split_dataset_n_random():
    parts = datasets.split_dataset_n_random(DATA, 3, seed=1)
    assert [list(p) for p in parts] == [[2, 9, 6], [4, 0, 3], [1, 7, 8]]


def _as_lists(pairs):
    return [(list(train), list(valid)) for train, valid in pairs]


def test_cross_validation():
    assert _as_lists(datasets.get_cross_validation_datasets(DATA, 3)) == [
        ([0, 1, 2, 3, 4, 5], [6, 7, 8, 9]),
        ([6, 7, 8, 9, 0, 1, 2], [3, 4, 5]),
        ([3, 4, 5, 6, 7, 8, 9], [0, 1, 2])]
    order = [6, 5, 4, 3, 2, 1, 0]
    assert _as_lists(datasets.get_cross_validation_datasets(
        list(range(7)), 3, order=order)) == [
        ([6, 5, 4, 3], [2, 1, 0]),
        ([2, 1, 0, 6, 5], [4, 3]),
        ([4, 3, 2, 1, 0], [6, 5])]
    assert order == [6, 5, 4, 3, 2, 1, 0]


def test_cross_validation_random():
    pairs = datasets.get_cross_validation_datasets_random(DATA, 3, seed=2)
    assert _as_lists(pairs) == [
        ([4, 1, 5, 0, 7, 2], [3, 6, 9, 8]),
        ([3, 6, 9, 8, 4, 1, 5], [0, 7, 2]),
        ([0, 7, 2, 3, 6, 9, 8], [4, 1, 5])]


def test_cross_validation_n_fold_deprecated():
    with pytest.warns(DeprecationWarning, match='n_fold'):
        pairs = datasets.get_cross_validation_datasets(DATA, n_fold=2)
    assert len(pairs) == 2
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        datasets.get_cross_validation_datasets(DATA, n_folds=2)
