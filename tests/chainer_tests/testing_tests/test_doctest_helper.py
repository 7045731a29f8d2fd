"""chainer.testing.doctest_helper."""

from chainer.testing import doctest_helper


def test_skipif_requires_satisfied(monkeypatch):
    monkeypatch.delenv('READTHEDOCS', raising=False)
    assert doctest_helper.skipif_requires_satisfied('numpy')
    assert not doctest_helper.skipif_requires_satisfied('numpy<1.0')
    monkeypatch.setenv('READTHEDOCS', 'True')
    assert not doctest_helper.skipif_requires_satisfied('numpy')
