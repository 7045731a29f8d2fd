import numpy
import pytest

import chainer


def _sum_and_difference(out_mode):
    def function(a, b, c=None):
        if out_mode is tuple:
            return a + b, b - a
        if out_mode is dict:
            return {'difference': b - a, 'sum': a + b}
        return a + b
    return function


def _keys(out_mode):
    return 'sum' if out_mode is None else ('sum', 'difference')


def _expected(table, out_mode, rows):
    a, b = table.data[0][rows], table.data[1][rows]
    if out_mode is None:
        return [(a + b).tolist()]
    return [(a + b).tolist(), (b - a).tolist()]


@pytest.mark.parametrize('in_mode', [tuple, dict])
@pytest.mark.parametrize('out_mode', [tuple, dict, None])
@pytest.mark.parametrize('rows', [None, [1, 3], slice(None, 2)],
                         ids=['all', 'list', 'slice'])
def test_transform(make_table, in_mode, out_mode, rows):
    table = make_table(mode=in_mode)
    view = table.transform(_keys(out_mode), _sum_and_difference(out_mode))
    assert isinstance(view, chainer.dataset.TabularDataset)
    assert len(view) == 10
    assert view.keys == ((_keys(out_mode),) if out_mode is None
                         else _keys(out_mode))
    columns = view.get_examples(rows, None)
    expected = _expected(table, out_mode, slice(None) if rows is None
                         else rows)
    assert [list(c) for c in columns] == expected
    assert all(isinstance(c, list) for c in columns)
    assert view.mode is out_mode


@pytest.mark.parametrize('in_mode', [tuple, dict])
@pytest.mark.parametrize('out_mode', [tuple, dict, None])
def test_transform_batch(make_table, in_mode, out_mode):
    table = make_table(mode=in_mode, as_array=True)
    view = table.transform_batch(
        _keys(out_mode), _sum_and_difference(out_mode))
    columns = view.get_examples(slice(2, 6), None)
    assert [list(c) for c in columns] == _expected(
        table, out_mode, slice(2, 6))
    assert all(isinstance(c, numpy.ndarray) for c in columns)
    assert table.reads == [(slice(2, 6), None)]
    assert view.mode is out_mode


@pytest.mark.parametrize('batch', [False, True])
def test_key_indices(make_table, batch):
    table = make_table(as_array=batch)
    function = _sum_and_difference(dict)
    keys = ('sum', 'difference')
    if batch:
        view = table.transform_batch(keys, function)
    else:
        view = table.transform(keys, function)
    assert [list(c) for c in view.get_examples([4], (1, 0, 1))] == [
        [100], [108], [100]]


def test_unary_input_is_positional(make_table):
    view = make_table(mode=None).transform('twice', lambda a: 2 * a)
    assert view.fetch() == [2 * i for i in range(10)]


def test_example_and_slice(make_table):
    view = make_table().transform(('s', 'p'), lambda a, b, c: (a + b, a * b))
    assert view[2] == (104, 204)
    assert view.slice[[3, 0], 'p'].fetch() == [309, 0]


def test_mode_is_learnt_from_the_first_row(make_table):
    table = make_table()
    view = table.transform('x', lambda a, b, c: {'x': a})
    assert table.reads == []
    assert view.mode is dict
    assert table.reads == [([0], None)]


def _flip_flop(first, then):
    outputs = iter([first, then])

    def function(*args, **kwargs):
        return next(outputs)
    return function


@pytest.mark.parametrize('first, then', [
    ((1,), {'a': 1}), ({'a': 1}, 1), (1, (1,))])
def test_transform_must_keep_its_return_type(make_table, first, then):
    view = make_table().transform(('a',), _flip_flop(first, then))
    view.get_examples([0], None)
    with pytest.raises(ValueError):
        view.get_examples([0], None)


@pytest.mark.parametrize('first, then', [
    (([1],), {'a': [1]}), ({'a': [1]}, [1]), ([1], ([1],))])
def test_transform_batch_must_keep_its_return_type(make_table, first, then):
    view = make_table().transform_batch(('a',), _flip_flop(first, then))
    view.get_examples([0], None)
    with pytest.raises(ValueError):
        view.get_examples([0], None)


@pytest.mark.parametrize('output', [
    lambda a: (a + [0],), lambda a: {'x': a + [0]}, lambda a: a + [0]])
def test_transform_batch_must_keep_the_length(make_table, output):
    view = make_table().transform_batch(
        ('x',), lambda a, b, c: output(a))
    with pytest.raises(ValueError):
        view.get_examples(None, None)


def test_converter_of_the_dataset(make_table):
    table = make_table().with_converter(lambda *columns: 'converted')
    view = table.transform('x', lambda a, b, c: a)
    assert view.convert(view.fetch()) == 'converted'
