import os.path
import unittest
import warnings

import numpy
import pytest

from chainer import testing
from chainer.testing import helper


def _skip_reason(decorator):
    class Case(unittest.TestCase):
        @decorator
        def test_it(self):
            pass

    result = unittest.TestResult()
    Case('test_it').run(result)
    return result.skipped[0][1] if result.skipped else None


class TestRequires:

    def test_with_requires_satisfied(self):
        assert _skip_reason(testing.with_requires('numpy>=1.0')) is None

    def test_with_requires_unsatisfied(self):
        assert _skip_reason(testing.with_requires('numpy<1.0')) == (
            'requires: numpy<1.0')

    def test_with_requires_missing_package(self):
        reason = _skip_reason(testing.with_requires(
            'numpy', 'no-such-package-for-chainer-tests'))
        assert reason == 'requires: numpy,no-such-package-for-chainer-tests'

    def test_without_requires(self):
        assert _skip_reason(testing.without_requires('numpy<1.0')) is None
        assert _skip_reason(testing.without_requires('numpy')) == (
            'requires: numpy')


class TestAssertWarns:

    def test_warned(self):
        with testing.assert_warns(DeprecationWarning):
            warnings.warn('old', DeprecationWarning)

    def test_subclass(self):
        with testing.assert_warns(Warning):
            warnings.warn('x', UserWarning)

    def test_not_warned(self):
        with pytest.raises(AssertionError) as e:
            with testing.assert_warns(DeprecationWarning):
                warnings.warn('x', UserWarning)
        assert str(e.value) == 'DeprecationWarning not triggerred'


def test_patch_wraps_the_original():
    with testing.patch('os.path.join') as mock:
        assert os.path.join('a', 'b') == 'a' + os.sep + 'b'
    mock.assert_called_once_with('a', 'b')
    assert not hasattr(os.path.join, 'assert_called_once_with')


def test_patch_with_explicit_wraps():
    with testing.patch('os.path.join', wraps=lambda *a: 'x') as mock:
        assert os.path.join('a') == 'x'
    assert mock.call_count == 1


def test_import_object_from_name():
    assert helper._import_object_from_name('numpy.linalg.svd') is (
        numpy.linalg.svd)
    with pytest.raises(RuntimeError, match="Can't import"):
        helper._import_object_from_name('not_loaded_module_xyz.f')
