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


def test_concatenated_dataset():
    d = datasets.ConcatenatedDataset([1, 2], [], numpy.array([3, 4, 5]))
    assert len(d) == 5
    assert [d[i] for i in range(5)] == [1, 2, 3, 4, 5]
    assert d[1:4] == [2, 3, 4]
    for i in (5, -1):
        with pytest.raises(IndexError):
            d[i]


def test_transform_dataset():
    base = datasets.TupleDataset(numpy.arange(4), numpy.arange(4) * 10)
    d = datasets.TransformDataset(base, lambda xt: xt[0] + xt[1])
    assert len(d) == 4
    assert d[3] == 33
    assert d[[0, 2]] == [0, 22]
