import numpy
import pytest

import chainer


def _join(make_table, mode_a=tuple, mode_b=tuple, as_array=False):
    first = make_table(mode=mode_a, as_array=as_array)
    second = make_table(keys=('d', 'e'), mode=mode_b, as_array=as_array)
    second.data += 1000
    return first, second, first.join(second)


@pytest.mark.parametrize('mode_a', [tuple, dict, None])
@pytest.mark.parametrize('mode_b', [tuple, dict, None])
def test_keys_and_mode(make_table, mode_a, mode_b):
    first, second, view = _join(make_table, mode_a, mode_b)
    assert isinstance(view, chainer.dataset.TabularDataset)
    assert len(view) == 10
    assert view.keys == first.keys + second.keys
    assert view.mode is (mode_a or mode_b or tuple)


@pytest.mark.parametrize('as_array', [False, True])
def test_fetch(make_table, as_array):
    first, second, view = _join(make_table, as_array=as_array)
    fetched = view.fetch()
    reference = numpy.vstack((first.data, second.data))
    assert [list(c) for c in fetched] == reference.tolist()
    kind = numpy.ndarray if as_array else list
    assert all(isinstance(c, kind) for c in fetched)


@pytest.mark.parametrize('key_indices, first_read, second_read', [
    ((0, 4, 1), (0, 1), (1,)),
    ((3,), 'none', (0,)),
    ((2, 2, 0), (2, 0), 'none'),
    ((), 'none', 'none'),
])
def test_each_dataset_reads_its_columns(
        make_table, key_indices, first_read, second_read):
    first, second, view = _join(make_table)
    columns = view.get_examples([4], key_indices)
    reference = numpy.vstack((first.data, second.data))[:, 4]
    assert [c[0] for c in columns] == [reference[k] for k in key_indices]
    for table, read in ((first, first_read), (second, second_read)):
        assert table.reads == ([] if read == 'none' else [([4], read)])


def test_example(make_table):
    _, _, view = _join(make_table, mode_a=None, mode_b=dict)
    assert view[2] == {'a': 2, 'd': 1002, 'e': 1102}
    assert view.slice[:, ('e', 'a')][3] == {'e': 1103, 'a': 3}


def test_lengths_must_match(make_table):
    with pytest.raises(ValueError):
        make_table().join(make_table(size=5, keys=('d', 'e')))


def test_keys_must_be_unique(make_table):
    with pytest.raises(ValueError):
        make_table().join(make_table(keys=('a', 'd')))


def test_converter_of_the_first(make_table):
    first = make_table().with_converter(lambda *columns: len(columns))
    view = first.join(make_table(keys=('d',)))
    assert view.convert(view.fetch()) == 4
