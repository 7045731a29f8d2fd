import importlib.metadata
import warnings

import pytest

from chainer import _environment_check
from chainer import _version

_CUPY = {
    'name': 'CuPy',
    'packages': ['cupy-cuda13x', 'cupy-cuda12x', 'cupy'],
    'specifier': '>=13.0.0,<15.0.0',
    'help': 'https://docs.cupy.dev/en/latest/install.html',
}


@pytest.fixture
def installed(monkeypatch):
    """Pretends that the distributions of a dict are installed, in the
    versions it gives."""
    versions = {}

    def version(name):
        if name not in versions:
            raise importlib.metadata.PackageNotFoundError(name)
        return versions[name]

    monkeypatch.setattr(importlib.metadata, 'version', version)
    monkeypatch.setattr(_version, '_optional_dependencies', [_CUPY])
    monkeypatch.delenv('CHAINER_WARN_VERSION_MISMATCH', raising=False)
    return versions


def _check():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        _environment_check.check()
    return [str(w.message) for w in caught]


def test_nothing_installed(installed):
    assert _check() == []


def test_supported_version(installed):
    pytest.importorskip('packaging')
    installed['cupy-cuda13x'] = '14.0.1'
    assert _check() == []


def test_unsupported_version(installed):
    pytest.importorskip('packaging')
    installed['cupy-cuda12x'] = '9.6.0'
    message, = _check()
    assert ('CuPy (cupy-cuda12x) version 9.6.0 may not be compatible with '
            'this version of Chainer.') in message
    assert "$ pip install 'cupy-cuda12x>=13.0.0,<15.0.0'" in message
    assert 'https://docs.cupy.dev/en/latest/install.html' in message


def test_version_mismatch_warning_disabled(installed, monkeypatch):
    monkeypatch.setenv('CHAINER_WARN_VERSION_MISMATCH', '0')
    installed['cupy-cuda12x'] = '9.6.0'
    assert _check() == []


def test_multiple_installations(installed):
    pytest.importorskip('packaging')
    installed['cupy-cuda13x'] = '13.6.0'
    installed['cupy'] = '14.0.0'
    message, = _check()
    assert 'Multiple installations of CuPy package has been detected.' in (
        message)
    assert str(_CUPY['packages']) in message
