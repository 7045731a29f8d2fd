"""chainer.utils.experimental."""

import pytest

import chainer


def test_experimental_warns_unless_disabled(monkeypatch, no_warning):
    with pytest.warns(FutureWarning, match='foo.bar is experimental'):
        chainer.utils.experimental('foo.bar')
    monkeypatch.setattr(chainer, 'disable_experimental_feature_warning', True)
    with no_warning():
        chainer.utils.experimental('foo.bar')
