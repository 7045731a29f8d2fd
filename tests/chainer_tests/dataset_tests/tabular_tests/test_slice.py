import numpy
import pytest

import chainer


ROWS = [
    slice(None),
    slice(2, 8),
    slice(None, None, -1),
    slice(8, 1, -3),
    slice(5, 5),
    slice(-3, None),
    [3, -2, 0],
    [],
    [i % 3 == 0 for i in range(10)],
    numpy.arange(10) % 2 == 1,
    numpy.array([1, 4], dtype=numpy.int32),
]
ROW_IDS = ['all', '2:8', '::-1', '8:1:-3', 'empty_slice', '-3:', 'list',
           'empty_list', 'mask_list', 'mask_array', 'int_array']


@pytest.mark.parametrize('rows', ROWS, ids=ROW_IDS)
@pytest.mark.parametrize('as_array', [False, True])
def test_rows(make_table, rows, as_array):
    table = make_table(as_array=as_array)
    view = table.slice[rows]
    expected = table.data[:, rows]
    assert isinstance(view, chainer.dataset.TabularDataset)
    assert len(view) == expected.shape[1]
    assert view.keys == ('a', 'b', 'c')
    assert view.mode is tuple
    fetched = view.fetch()
    for column, reference in zip(fetched, expected):
        assert list(column) == reference.tolist()
        assert isinstance(column, numpy.ndarray if as_array else list)
    assert len(table.reads) == 1


@pytest.mark.parametrize('outer', ROWS[:7], ids=ROW_IDS[:7])
@pytest.mark.parametrize('inner', [
    slice(None), slice(1, None), slice(None, None, -1), slice(None, None, -2),
    slice(1, 3), [0], [-1, 0], []], ids=[
    'all', '1:', '::-1', '::-2', '1:3', 'first', 'last_first', 'none'])
def test_view_of_view_reads_once(make_table, outer, inner):
    table = make_table()
    view = table.slice[outer]
    expected = numpy.arange(10)[outer]
    if isinstance(inner, list) and not all(
            -len(expected) <= i < len(expected) for i in inner):
        with pytest.raises(IndexError):
            view.slice[inner]
        return
    nested = view.slice[inner]
    assert len(nested) == len(expected[inner])
    assert nested.fetch()[0] == expected[inner].tolist()
    assert len(table.reads) == 1


def test_negative_index_counts_from_the_end_of_the_view(make_table):
    view = make_table().slice[2:8]
    assert view[-1] == (7, 107, 207)
    assert view.slice[::-2][-1] == (3, 103, 203)


def test_read_types(make_table):
    table = make_table()
    table.slice[2:8].get_examples(None, None)
    table.slice[[1, 2]].get_examples(slice(1, None), None)
    table.slice[:, ('b',)].get_examples(None, None)
    assert table.reads == [(slice(2, 8), None), ([2], None), (slice(None),
                                                              (1,))]


@pytest.mark.parametrize('mode', [tuple, dict])
@pytest.mark.parametrize('keys, expected_keys, expected_mode', [
    ('b', ('b',), None),
    (1, ('b',), None),
    (-1, ('c',), None),
    (('c', 0), ('c', 'a'), 'same'),
    ((), (), 'same'),
])
def test_keys(make_table, mode, keys, expected_keys, expected_mode):
    table = make_table(mode=mode)
    view = table.slice[:, keys]
    assert view.keys == expected_keys
    assert view.mode is (mode if expected_mode == 'same' else None)
    index = {'a': 0, 'b': 1, 'c': 2}
    columns = view.get_examples([4], None)
    assert [c[0] for c in columns] == [
        100 * index[k] + 4 for k in expected_keys]


def test_tuple_of_keys_of_a_unary_dataset_gives_tuples(make_table):
    view = make_table(mode=None).slice[:, ('a',)]
    assert view.mode is tuple
    assert view[2] == (2,)


def test_rows_and_keys_together(make_table):
    view = make_table().slice[[3, 1], ('c', 'a')]
    assert view.keys == ('c', 'a')
    assert list(view) == [(203, 3), (201, 1)]
    assert view.asdict()[1] == {'a': 1, 'c': 201}
    assert view.slice[:, 'a'].fetch() == [3, 1]


@pytest.mark.parametrize('rows, error', [
    ([10], IndexError),
    ([-11], IndexError),
    ([True] * 9, ValueError),
    (numpy.ones(11, dtype=bool), ValueError),
])
def test_bad_rows(make_table, rows, error):
    with pytest.raises(error):
        make_table().slice[rows]


@pytest.mark.parametrize('keys, error', [
    (3, IndexError), ((-4,), IndexError), ('d', KeyError), (('a', 'd'),
                                                            KeyError)])
def test_bad_keys(make_table, keys, error):
    with pytest.raises(error):
        make_table().slice[:, keys]


def test_convert_of_the_dataset(make_table):
    table = make_table().with_converter(lambda *columns: len(columns))
    view = table.slice[1:3, ('a', 'b')]
    assert view.convert(view.fetch()) == 2


def _slices():
    bounds = [None, -2, 0, 3]
    return [slice(start, stop, step) for start in bounds for stop in bounds
            for step in (None, 2, -1, -3)]


@pytest.mark.parametrize('size', [0, 1, 5])
def test_slice_of_slice_matches_python(size):
    dataset = chainer.dataset.tabular.from_data(list(range(size)))
    for outer in _slices():
        view = dataset.slice[outer]
        for inner in _slices():
            expected = list(range(size))[outer][inner]
            assert view.slice[inner].fetch() == expected, (outer, inner)
