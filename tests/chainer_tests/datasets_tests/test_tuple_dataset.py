"""TupleDataset."""

import numpy
import pytest

from chainer import datasets


def test_tuple_dataset():
    xs = numpy.arange(6).reshape(3, 2)
    ts = ['a', 'b', 'c']
    d = datasets.TupleDataset(xs, ts)
    assert len(d) == 3
    x, t = d[1]
    numpy.testing.assert_array_equal(x, [2, 3])
    assert t == 'b'
    batch = d[0:2]
    assert isinstance(batch, list) and len(batch) == 2
    assert batch[1][1] == 'b'
    numpy.testing.assert_array_equal(batch[0][0], [0, 1])
    assert [t for _, t in d[::-2]] == ['c', 'a']


def test_tuple_dataset_errors():
    with pytest.raises(ValueError, match='no datasets are given'):
        datasets.TupleDataset()
    with pytest.raises(ValueError,
                       match='dataset of the index 1 has a wrong length'):
        datasets.TupleDataset(numpy.arange(3), [1])
