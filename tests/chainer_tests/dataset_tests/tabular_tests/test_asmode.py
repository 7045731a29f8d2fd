import pytest

import chainer


@pytest.mark.parametrize('mode', [tuple, dict, None])
@pytest.mark.parametrize('method, expected_mode', [
    ('astuple', tuple), ('asdict', dict)])
def test_asmode(make_table, mode, method, expected_mode):
    table = make_table(mode=mode).with_converter(lambda *a, **k: 'base')
    view = getattr(table, method)()
    assert isinstance(view, chainer.dataset.TabularDataset)
    assert len(view) == len(table)
    assert view.keys == table.keys
    assert view.mode is expected_mode
    assert view.get_examples([1], None) == table.get_examples([1], None)
    assert view.convert(view.fetch()) == 'base'
    values = tuple(100 * k + 1 for k in range(len(table.keys)))
    if expected_mode is tuple:
        assert view[1] == values
    else:
        assert view[1] == dict(zip(table.keys, values))
