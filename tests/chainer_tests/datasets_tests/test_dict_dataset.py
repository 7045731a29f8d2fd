"""DictDataset."""

import numpy
import pytest

from chainer import datasets


def test_dict_dataset():
    d = datasets.DictDataset(x=numpy.arange(3), y=['a', 'b', 'c'])
    assert len(d) == 3
    assert d[1] == {'x': 1, 'y': 'b'}
    assert d[1:3] == [{'x': 1, 'y': 'b'}, {'x': 2, 'y': 'c'}]


def test_dict_dataset_errors():
    with pytest.raises(ValueError, match='no datasets are given'):
        datasets.DictDataset()
    with pytest.raises(ValueError, match='dataset length conflicts at "y"'):
        datasets.DictDataset(x=numpy.arange(3), y=[1])
