import numpy
import pytest

import chainer
from chainer.dataset import tabular


LIST = [2, 7, 1, 8, 4, 5, 9, 0, 3, 6]


def _check(dataset, keys, mode, expected, kinds):
    assert isinstance(dataset, chainer.dataset.TabularDataset)
    assert len(dataset) == 10
    if keys is not None:
        assert dataset.keys == keys
    assert dataset.mode is mode
    fetched = dataset.slice[[1, 3]].fetch()
    if mode is None:
        fetched = (fetched,)
    elif mode is dict:
        fetched = tuple(fetched[key] for key in dataset.keys)
    assert [list(c) for c in fetched] == expected
    assert [type(c) for c in fetched] == kinds


@pytest.mark.parametrize('data, size, keys, mode, expected, kinds', [
    (numpy.arange(10), None, None, None, [[1, 3]], [numpy.ndarray]),
    (('a', numpy.arange(10)), None, ('a',), None, [[1, 3]],
     [numpy.ndarray]),
    (LIST, None, None, None, [[7, 8]], [list]),
    (('a', LIST), None, ('a',), None, [[7, 8]], [list]),
    (('a', lambda i: i * i), 10, ('a',), None, [[1, 9]], [list]),
    ((('a', 'b'), lambda i: (i * i, -i)), 10, ('a', 'b'), tuple,
     [[1, 9], [-1, -3]], [list, list]),
    ((('a', 'b'), lambda i: {'b': -i, 'a': i * i}), 10, ('a', 'b'), dict,
     [[1, 9], [-1, -3]], [list, list]),
    ((numpy.arange(10), ('b', LIST)), None, None, tuple,
     [[1, 3], [7, 8]], [numpy.ndarray, list]),
    ((('a', numpy.arange(10)), (('b', 'c'), lambda i: {'b': i, 'c': -i})),
     None, ('a', 'b', 'c'), tuple, [[1, 3], [1, 3], [-1, -3]],
     [numpy.ndarray, list, list]),
    ((('a', lambda i: i * i), ('b', lambda i: -i)), 10, ('a', 'b'), tuple,
     [[1, 9], [-1, -3]], [list, list]),
    ({'a': numpy.arange(10), ('b', 'c'): lambda i: (i * i, -i)}, None,
     ('a', 'b', 'c'), dict, [[1, 3], [1, 9], [-1, -3]],
     [numpy.ndarray, list, list]),
    ({'a': lambda i: i * i, 'b': LIST}, None, ('a', 'b'), dict,
     [[1, 9], [7, 8]], [list, list]),
], ids=['array', 'keyed_array', 'list', 'keyed_list', 'callable',
        'callable_tuple', 'callable_dict', 'tuple', 'tuple_of_keyed',
        'tuple_of_callables', 'dict', 'dict_size_from_a_later_list'])
def test_from_data(data, size, keys, mode, expected, kinds):
    _check(tabular.from_data(data, size=size), keys, mode, expected, kinds)


def test_examples():
    dataset = tabular.from_data((('x', numpy.arange(3)), ('y', ['a', 'b',
                                                              'c'])))
    assert dataset[1] == (1, 'b')
    assert tabular.from_data({'x': [3, 1], 'y': [4, 1]})[0] == {
        'x': 3, 'y': 4}


@pytest.mark.parametrize('data, size', [
    (lambda i: i, 10),
    (('a', lambda i: i), None),
    ((('a', lambda i: i), ('b', lambda i: -i)), None),
    ({'a': lambda i: i, 'b': lambda i: -i}, None),
], ids=['no_key', 'no_size', 'tuple_no_size', 'dict_no_size'])
def test_callable_needs_key_and_size(data, size):
    with pytest.raises(ValueError):
        tabular.from_data(data, size=size)


@pytest.mark.parametrize('data', [range(3), (1, 2, 3), {'a': 'abc'}],
                         ids=['range', 'tuple_of_ints', 'str_column'])
def test_unsupported_column(data):
    with pytest.raises(TypeError):
        tabular.from_data(data)


def test_unnamed_columns_get_unique_keys():
    array = numpy.arange(4)
    first, second = tabular.from_data(array), tabular.from_data(array)
    assert first.keys != second.keys
    dataset = tabular.from_data((array, array))
    assert len(set(dataset.keys)) == 2
    assert dataset[2] == (2, 2)


def test_index_column_reads():
    dataset = tabular.from_data(('i', lambda i: 10 * i), size=6)
    assert dataset.fetch() == [0, 10, 20, 30, 40, 50]
    assert dataset.slice[::-2].fetch() == [50, 30, 10]
    assert dataset.get_examples([5, 1], None) == ([50, 10],)
