import os.path
import unittest
import warnings

import numpy
import pytest

from chainer import testing
from chainer.testing import doctest_helper
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

    def test_doctest_helper(self, monkeypatch):
        monkeypatch.delenv('READTHEDOCS', raising=False)
        assert doctest_helper.skipif_requires_satisfied('numpy')
        assert not doctest_helper.skipif_requires_satisfied('numpy<1.0')
        monkeypatch.setenv('READTHEDOCS', 'True')
        assert not doctest_helper.skipif_requires_satisfied('numpy')


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


class TestGenerateMatrix:

    @pytest.mark.parametrize('shape', [(3, 3), (2, 4), (5, 2), (2, 3, 4)])
    @pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64,
                                       numpy.complex128])
    def test_singular_values(self, shape, dtype):
        k = min(shape[-2:])
        singular_values = numpy.linspace(1, 2, k)
        a = testing.generate_matrix(
            shape, dtype=dtype, singular_values=singular_values)
        assert a.shape == shape
        assert a.dtype == dtype
        s = numpy.linalg.svd(a.astype(numpy.complex128), compute_uv=False)
        numpy.testing.assert_allclose(
            numpy.sort(s, axis=-1),
            numpy.broadcast_to(singular_values, s.shape), rtol=1e-5)

    def test_zero_size(self):
        a = testing.generate_matrix((0, 3), singular_values=[])
        assert a.shape == (0, 3)

    @pytest.mark.parametrize('kwargs, error, match', [
        ({'shape': (3,), 'singular_values': 1}, ValueError, 'too few axes'),
        ({'shape': (2, 2), 'dtype': numpy.int32, 'singular_values': 1},
         TypeError, 'not supported'),
        ({'shape': (2, 2)}, TypeError, 'singular_values is not given'),
        ({'shape': (2, 2), 'singular_values': [1j, 1]}, TypeError,
         'not real'),
        ({'shape': (2, 2), 'singular_values': [-1, 1]}, ValueError,
         'negative singular value'),
        ({'shape': (2, 2), 'singular_values': 1, 'foo': 1}, TypeError,
         r"generate_matrix\(\) got unexpected keyword argument\(s\) 'foo'"),
    ])
    def test_errors(self, kwargs, error, match):
        with pytest.raises(error, match=match):
            testing.generate_matrix(**kwargs)


def test_save_and_load():
    saved = []

    def saver(path, obj):
        with open(path, 'w') as f:
            f.write(obj)
        saved.append(path)

    def loader(path, dst):
        with open(path) as f:
            dst.append(f.read())

    dst = []
    testing.save_and_load('content', dst, 'file.txt', saver, loader)
    assert dst == ['content']
    assert os.path.basename(saved[0]) == 'file.txt'
    assert not os.path.exists(saved[0])


def test_run_module_does_nothing_when_imported():
    assert testing.run_module('some.module', __file__) is None


def test_save_and_load_npz():
    pytest.importorskip('chainer.serializers')
    pytest.importorskip('chainer.link')
    import chainer

    def make_link(value):
        link = chainer.Link()
        with link.init_scope():
            link.w = chainer.Parameter(numpy.full(3, value, numpy.float32))
        return link

    src, dst = make_link(1.0), make_link(0.0)
    testing.save_and_load_npz(src, dst)
    numpy.testing.assert_array_equal(dst.w.array, src.w.array)


def test_trainer_with_mock_updater():
    pytest.importorskip('chainer.training')
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=(5, 'iteration'), iter_per_epoch=2)
    trainer.run()
    updater = trainer.updater
    assert updater.iteration == 5
    assert updater.epoch == 2
    assert updater.epoch_detail == 2.5
    assert updater.update_core.call_count == 5
