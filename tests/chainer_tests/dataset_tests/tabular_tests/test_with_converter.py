import pytest

import chainer


@pytest.mark.parametrize('mode', [tuple, dict, None])
def test_with_converter(make_table, mode):
    table = make_table(mode=mode)
    calls = []

    def converter(*args, **kwargs):
        calls.append((args, kwargs))
        return 'converted'

    view = table.with_converter(converter)
    assert isinstance(view, chainer.dataset.TabularDataset)
    assert (len(view), view.keys, view.mode) == (
        len(table), table.keys, table.mode)
    assert view.get_examples([2], None) == table.get_examples([2], None)
    assert view.convert(view.fetch()) == 'converted'
    columns = table.data.tolist()
    if mode is tuple:
        assert calls == [(tuple(columns), {})]
    elif mode is dict:
        assert calls == [((), dict(zip('abc', columns)))]
    else:
        assert calls == [((columns[0],), {})]


def test_views_keep_the_converter(make_table):
    view = make_table().with_converter(lambda a, b, c: (a[0], c[0]))
    view = view.slice[3:]
    assert view.convert(view.fetch()) == (3, 203)
