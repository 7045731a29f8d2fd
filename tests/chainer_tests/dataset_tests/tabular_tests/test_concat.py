import numpy
import pytest

import chainer
from chainer.dataset import tabular


def _concat(make_table, as_array=False):
    first = make_table(size=10, as_array=as_array)
    second = make_table(size=5, as_array=as_array)
    second.data += 1000
    return first, second, first.concat(second)


def _reference(first, second):
    return numpy.hstack((first.data, second.data))


def test_properties(make_table):
    first, second, view = _concat(make_table)
    assert isinstance(view, chainer.dataset.TabularDataset)
    assert len(view) == 15
    assert view.keys == ('a', 'b', 'c')
    assert view.mode is tuple


def test_mode_of_the_first(make_table):
    view = make_table(mode=dict).concat(make_table(mode=tuple))
    assert view.mode is dict
    assert view[12] == {'a': 2, 'b': 102, 'c': 202}


@pytest.mark.parametrize('indices, first_read, second_read', [
    (None, None, None),
    (slice(13, 6, -2), slice(9, 6, -2), slice(3, None, -2)),
    (slice(12, None, -2), slice(8, None, -2), slice(2, None, -2)),
    (slice(9, None, -2), slice(9, None, -2), 'none'),
    (slice(3, 14, 4), slice(3, 10, 4), slice(1, 4, 4)),
    (slice(11, 20), 'none', slice(1, 5, 1)),
    ([3, 1, 12, 14, 7], [3, 1, 7], [2, 4]),
    ([1, 2, 1], [1, 2, 1], 'none'),
    ([-1, 0], [0], [4]),
])
def test_reads(make_table, indices, first_read, second_read):
    first, second, view = _concat(make_table)
    columns = view.get_examples(indices, (2,))
    reference = _reference(first, second)[2]
    if indices is not None:
        reference = reference[indices]
    assert list(columns[0]) == reference.tolist()
    for table, read in ((first, first_read), (second, second_read)):
        assert table.reads == ([] if read == 'none' else [(read, (2,))])


def _slices():
    bounds = [None, -16, -6, -1, 0, 4, 10, 11, 16]
    return [slice(start, stop, step) for start in bounds for stop in bounds
            for step in (None, 1, 3, -1, -2, -4)]


@pytest.mark.parametrize('sizes', [(10, 5), (3, 0, 4), (1, 1, 1), (0,)],
                         ids=['10_5', '3_0_4', '1_1_1', '0'])
def test_slices_match_python(sizes):
    data = list(range(sum(sizes)))
    parts, offset = [], 0
    for size in sizes:
        parts.append(tabular.from_data(('x', data[offset:offset + size])))
        offset += size
    view = parts[0].concat(*parts[1:])
    for indices in _slices():
        columns = view.get_examples(indices, None)
        assert list(columns[0]) == data[indices], indices


@pytest.mark.parametrize('as_array', [False, True])
def test_arrays_kept_when_one_dataset_is_read(make_table, as_array):
    _, _, view = _concat(make_table, as_array=as_array)
    kind = numpy.ndarray if as_array else list
    assert all(isinstance(c, kind) for c in view.get_examples([1, 2], None))
    assert all(isinstance(c, kind)
               for c in view.get_examples(slice(11, None), None))
    assert all(isinstance(c, list)
               for c in view.get_examples([1, 12], None))
    assert all(isinstance(c, list) for c in view.get_examples(None, None))


def test_empty_reads(make_table):
    _, _, view = _concat(make_table)
    assert view.get_examples([], None) == ([], [], [])
    assert view.get_examples(slice(3, 3), (0,)) == ([],)


@pytest.mark.parametrize('index', [15, -16])
def test_index_out_of_bounds(make_table, index):
    _, _, view = _concat(make_table)
    with pytest.raises(IndexError):
        view.get_examples([1, index], None)


@pytest.mark.parametrize('keys', [('a', 'b'), ('b', 'a', 'c')])
def test_keys_must_match(make_table, keys):
    with pytest.raises(ValueError):
        make_table().concat(make_table(keys=keys))


def test_converter_of_the_first(make_table):
    first = make_table().with_converter(lambda *columns: 'first')
    view = first.concat(make_table())
    assert view.convert(view.fetch()) == 'first'
