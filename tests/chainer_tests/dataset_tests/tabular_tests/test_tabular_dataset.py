import numpy
import pytest

import chainer
from chainer.dataset import tabular


@pytest.mark.parametrize('mode', [tuple, dict, None])
def test_fetch(make_table, mode):
    table = make_table(mode=mode)
    fetched = table.fetch()
    assert table.reads == [(None, None)]
    if mode is tuple:
        assert fetched == tuple(table.data.tolist())
    elif mode is dict:
        assert fetched == dict(zip('abc', table.data.tolist()))
    else:
        assert fetched == table.data[0].tolist()


@pytest.mark.parametrize('mode', [tuple, dict, None])
@pytest.mark.parametrize('as_array', [False, True])
def test_convert_makes_arrays(make_table, mode, as_array):
    table = make_table(mode=mode, as_array=as_array)
    converted = table.convert(table.fetch())
    if mode is dict:
        assert sorted(converted) == ['a', 'b', 'c']
        columns = [converted[key] for key in 'abc']
    elif mode is tuple:
        columns = list(converted)
    else:
        columns = [converted]
    for column, expected in zip(columns, table.data):
        assert isinstance(column, numpy.ndarray)
        numpy.testing.assert_array_equal(column, expected)


def test_convert_keeps_arrays(make_table):
    array = numpy.arange(3)
    assert make_table().convert((array,))[0] is array


def test_convert_empty_column(make_table):
    converted = make_table().convert(([], []))
    assert all(isinstance(c, numpy.ndarray) and c.size == 0
               for c in converted)


@pytest.mark.parametrize('mode', [tuple, dict, None])
def test_get_example_reads_one_row(make_table, mode):
    table = make_table(mode=mode)
    example = table.get_example(3)
    assert table.reads == [([3], None)]
    if mode is tuple:
        assert example == (3, 103, 203)
    elif mode is dict:
        assert example == {'a': 3, 'b': 103, 'c': 203}
    else:
        assert example == 3


def test_getitem_and_iter(make_table):
    table = make_table(size=4)
    assert table[1] == (1, 101, 201)
    assert table[1:3] == [(1, 101, 201), (2, 102, 202)]
    assert table[[3, 0]] == [(3, 103, 203), (0, 100, 200)]
    assert list(table) == [(i, 100 + i, 200 + i) for i in range(4)]


def test_abstract_methods():
    dataset = chainer.dataset.TabularDataset()
    with pytest.raises(NotImplementedError):
        len(dataset)
    with pytest.raises(NotImplementedError):
        dataset.keys
    with pytest.raises(NotImplementedError):
        dataset.mode
    with pytest.raises(NotImplementedError):
        dataset.get_examples(None, None)


def test_exports():
    assert chainer.dataset.TabularDataset is \
        tabular.tabular_dataset.TabularDataset
    assert issubclass(chainer.dataset.TabularDataset,
                      chainer.dataset.DatasetMixin)
    for name in ('_asmode', '_concat', '_join', '_slice', '_transform',
                 '_with_converter', 'delegate_dataset', 'from_data',
                 'DelegateDataset'):
        assert hasattr(tabular, name)
