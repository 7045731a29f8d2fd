import sys
import unittest

import numpy
import pytest

import chainer
from chainer import backend
from chainer import testing
from chainer.testing import _bundle
from chainer.testing import attr

_this_module = sys.modules[__name__]

_CPU_NAME = (
    'use_chainerx_false__chainerx_device_None__use_cuda_false__'
    'cuda_device_None__use_cudnn_never__cudnn_deterministic_false__'
    'autotune_false__cudnn_fast_batch_normalization_false__use_ideep_never')
_GPU_NAME = (
    'use_chainerx_false__chainerx_device_None__use_cuda_true__'
    'cuda_device_0__use_cudnn_always__cudnn_deterministic_false__'
    'autotune_false__cudnn_fast_batch_normalization_false__use_ideep_never')


def _mark_names(func):
    return sorted(m.name for m in getattr(func, 'pytestmark', []))


class TestBackendConfig:

    def test_defaults(self):
        config = testing.BackendConfig({})
        assert config.use_cuda is False
        assert config.cuda_device is None
        assert config.use_cudnn == 'never'
        assert config.use_ideep == 'never'
        assert config.use_chainerx is False
        assert isinstance(config.device, backend.CpuDevice)
        assert config.xp is numpy
        assert config.get_pytest_marks() == []
        assert config.get_func_str() == _CPU_NAME

    def test_repr(self):
        config = testing.BackendConfig({'use_cudnn': 'always'})
        assert repr(config) == (
            '<BackendConfig use_chainerx=False chainerx_device=None '
            'use_cuda=False cuda_device=None use_cudnn=\'always\' '
            'cudnn_deterministic=False autotune=False '
            'cudnn_fast_batch_normalization=False use_ideep=\'never\'>')

    def test_cuda(self):
        config = testing.BackendConfig(
            {'use_cuda': True, 'use_cudnn': 'always'})
        assert config.cuda_device == 0
        assert config.get_func_str() == _GPU_NAME
        marks = config.get_pytest_marks()
        assert marks == [attr.gpu, attr.cudnn]

    def test_second_gpu(self):
        config = testing.BackendConfig({'use_cuda': True, 'cuda_device': 1})
        marks = config.get_pytest_marks()
        assert len(marks) == 2
        assert marks[0] is attr.gpu

        def f():
            pass

        assert 'multi_gpu' in _mark_names(marks[1](f))

    def test_chainerx_is_unavailable(self):
        config = testing.BackendConfig(
            {'use_chainerx': True, 'chainerx_device': 'native:0'})
        assert config.get_func_str().startswith(
            'use_chainerx_true__chainerx_device_native:0__')
        assert config.get_pytest_marks() == [attr.chainerx]
        with pytest.raises(RuntimeError, match='ChainerX is not available'):
            config.device

    def test_chainerx_needs_device(self):
        with pytest.raises(AssertionError):
            testing.BackendConfig({'use_chainerx': True})

    def test_ideep_mark(self):
        config = testing.BackendConfig({'use_ideep': 'always'})
        assert config.get_pytest_marks() == [attr.ideep]

    def test_bad_params(self):
        with pytest.raises(TypeError, match='params must be a dict'):
            testing.BackendConfig([('use_cuda', True)])
        with pytest.raises(ValueError, match='Parameter foo is not defined'):
            testing.BackendConfig({'foo': 1})

    def test_context_applies_config(self):
        config = testing.BackendConfig(
            {'use_cudnn': 'always', 'autotune': True})
        before = chainer.config.use_cudnn
        with config as entered:
            assert entered is config
            assert chainer.config.use_cudnn == 'always'
            assert chainer.config.autotune is True
            assert chainer.config.use_ideep == 'never'
        assert chainer.config.use_cudnn == before

    def test_get_array(self):
        config = testing.BackendConfig({})
        x = numpy.ones((2, 3))
        assert isinstance(config.get_array(x), numpy.ndarray)
        result = config.get_array((x, None))
        assert isinstance(result, tuple)
        assert result[1] is None
        numpy.testing.assert_array_equal(result[0], x)


_seen_configs = []


@testing.inject_backend_tests(
    None, [{}, {'use_cuda': True, 'use_cudnn': 'always'}])
class TestInjectedPlain:

    def test_config(self, backend_config):
        assert isinstance(backend_config, testing.BackendConfig)
        _seen_configs.append(backend_config.use_cuda)
        assert backend_config.xp is not None


@testing.inject_backend_tests(['test_injected'], [{}])
class TestInjectedSome(unittest.TestCase):

    def test_injected(self, backend_config):
        self.assertFalse(backend_config.use_cuda)

    def test_not_injected(self):
        pass


@testing.parameterize({'n': 1}, {'n': 2})
@testing.inject_backend_tests(None, [{}])
class TestInjectedParameterized(unittest.TestCase):

    def test_both(self, backend_config):
        self.assertIn(self.n, (1, 2))
        self.assertIsInstance(backend_config, testing.BackendConfig)


@testing.parameterize({'n': 1})
@testing.inject_backend_tests(['test_injected'], [{}])
class TestInjectedSomeParameterized(unittest.TestCase):

    def test_injected(self, backend_config):
        self.assertEqual(self.n, 1)

    def test_not_injected(self):
        self.assertEqual(self.n, 1)


def test_generated_classes():
    names = sorted(
        name for name, obj in vars(_this_module).items()
        if name.startswith('TestInjected') and isinstance(obj, type))
    assert names == [
        'TestInjectedParameterized_' + _CPU_NAME + '_param_0_{n=1}',
        'TestInjectedParameterized_' + _CPU_NAME + '_param_1_{n=2}',
        'TestInjectedPlain_' + _CPU_NAME,
        'TestInjectedPlain_' + _GPU_NAME,
        'TestInjectedSomeParameterized_param_0_{n=1}',
        'TestInjectedSomeParameterized_' + _CPU_NAME + '_param_0_{n=1}',
        'TestInjectedSome_' + _CPU_NAME,
    ]
    # As in Chainer, the class that keeps the methods left out of the list
    # is bound under the decorated name, where the bundle replaces it; it is
    # collected only once parameterize expands it (just above).
    some = getattr(_this_module, 'TestInjectedSome')
    assert isinstance(some, _bundle._ParameterizedTestCaseBundle)
    kept, some_cpu = (case.klass for case in some.cases)
    assert kept.__name__ == 'TestInjectedSome'
    assert kept.test_injected is None
    assert kept.test_not_injected is not None
    kept_parameterized = getattr(
        _this_module, 'TestInjectedSomeParameterized_param_0_{n=1}')
    assert kept_parameterized.test_injected is None
    assert kept_parameterized.test_not_injected is not None
    some_cpu = getattr(_this_module, 'TestInjectedSome_' + _CPU_NAME)
    assert some_cpu.test_not_injected is None
    gpu = getattr(_this_module, 'TestInjectedPlain_' + _GPU_NAME)
    assert {'gpu', 'cudnn'} <= set(_mark_names(gpu.test_config))
    cpu = getattr(_this_module, 'TestInjectedPlain_' + _CPU_NAME)
    assert _mark_names(cpu.test_config) == []


class _Base:

    def test_run(self, backend_config):
        raise AssertionError('must not run')


def _check_skipped(params):
    bundle = testing.inject_backend_tests(None, params)(_Base)
    try:
        for case in bundle.cases:
            with pytest.raises(unittest.SkipTest, match='not available'):
                case.klass().test_run()
    finally:
        for case in bundle.cases:
            delattr(_this_module, case.class_name)


def test_ideep_backend_is_skipped():
    _check_skipped([{'use_ideep': 'always'}])


def test_chainerx_backend_is_skipped(pytestconfig):
    markers = [m.split(':')[0] for m in pytestconfig.getini('markers')]
    if 'chainerx' not in markers:
        pytest.skip('the chainerx marker is not registered')
    _check_skipped([{'use_chainerx': True, 'chainerx_device': 'native:0'}])


def test_inject_backend_tests_errors():
    with pytest.raises(TypeError, match='method_names must be'):
        testing.inject_backend_tests('test_x', [{}])
    with pytest.raises(TypeError, match='params must be a list of dicts'):
        testing.inject_backend_tests(None, {})
    with pytest.raises(TypeError, match='params must be a list of dicts'):
        testing.inject_backend_tests(None, [{}, 1])


class TestAttr:

    def test_plain_marks(self):
        def f():
            pass

        assert _mark_names(attr.slow(f)) == ['slow']
        assert attr.is_available()
        assert attr.get_error() is None

    def test_gpu(self):
        @attr.gpu
        def f():
            pass

        names = _mark_names(f)
        assert 'gpu' in names
        skipif, = [m for m in f.pytestmark if m.name == 'skipif']
        assert skipif.args[0] == (attr._cuda_device_count() < 1)

    def test_multi_gpu(self):
        @attr.multi_gpu(2)
        class C:
            pass

        names = _mark_names(C)
        assert 'gpu' in names
        assert 'multi_gpu' in names
        skipif, = [m for m in C.pytestmark if m.name == 'skipif']
        assert skipif.args[0] == (attr._cuda_device_count() < 2)

    def test_gpu_limit(self, monkeypatch):
        monkeypatch.setattr(attr, '_gpu_limit', 0)
        assert attr._gpu_skip_reason(1) == '1 GPUs required'
        monkeypatch.setattr(attr, '_gpu_limit', 4)
        if attr._cuda_device_count() >= 2:
            assert attr._gpu_skip_reason(2) is None
        else:
            assert attr._gpu_skip_reason(2) is not None


@attr.gpu
def test_gpu_mark_runs_only_with_gpu():
    import cupy
    assert cupy.cuda.runtime.getDeviceCount() >= 1
