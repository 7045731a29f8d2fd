import io
import os
import subprocess
import sys
import threading

import numpy
import pytest

import chainer
from chainer import _runtime_info
from chainer import configuration


def test_defaults_match_chainer():
    conf = chainer.global_config
    assert conf.train is True
    assert conf.enable_backprop is True
    assert conf.type_check is True
    assert conf.debug is False
    assert conf.dtype == numpy.float32
    assert conf.use_cudnn == 'auto'
    assert conf.use_ideep == 'never'
    assert conf.cudnn_deterministic is False
    assert conf.keep_graph_on_report is False
    assert conf.lazy_grad_sum is False
    assert conf.autotune is False
    assert conf.in_recomputing is False
    # The one default a test run may set from outside (CI runs the op
    # tests again with the kernels off).
    assert conf.use_chainerx_cpp == os.environ.get(
        'CHAINER_USE_CHAINERX_CPP', 'auto')
    # Likewise the compiled autograd core (on unless switched off).
    assert conf.use_compiled_core is (
        os.environ.get('CHAINER_USE_COMPILED_CORE', '1') != '0')


def test_local_overrides_global():
    assert chainer.config.train
    with chainer.using_config('train', False):
        assert not chainer.config.train
        assert chainer.global_config.train
        with chainer.using_config('train', True):
            assert chainer.config.train
        assert not chainer.config.train
    assert chainer.config.train


def test_using_config_restores_on_error():
    with pytest.raises(ValueError):
        with chainer.using_config('debug', True):
            raise ValueError()
    assert not chainer.config.debug


def test_new_key():
    with chainer.using_config('my_key', 3):
        assert chainer.config.my_key == 3
    with pytest.raises(AttributeError):
        chainer.config.my_key


def test_thread_local():
    seen = []

    def worker():
        seen.append(chainer.config.train)

    with chainer.using_config('train', False):
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
    assert seen == [True]


def test_show():
    out = io.StringIO()
    with chainer.using_config('train', False):
        chainer.config.show(out)
    lines = out.getvalue().splitlines()
    train = [line for line in lines if line.startswith('train ')]
    assert train[0].split() == ['train', 'False']
    keys = [line.split()[0] for line in lines]
    assert keys == sorted(keys)


def test_get_dtype():
    assert chainer.get_dtype() == numpy.float32
    assert chainer.get_dtype(numpy.float64) == numpy.float64
    assert chainer.get_dtype(chainer.mixed16) == numpy.float16
    assert chainer.get_dtype(chainer.mixed16, numpy.float32) == \
        numpy.float32
    assert repr(chainer.mixed16) == "dtype('mixed16')"


def _run_with_env(code, **env):
    full_env = dict(os.environ)
    full_env.update(env)
    return subprocess.run(
        [sys.executable, '-c', code], env=full_env, capture_output=True,
        text=True)


def test_environment_variables():
    result = _run_with_env(
        'import chainer; c = chainer.config; '
        'print(c.debug, c.type_check, c.dtype, c.use_chainerx_cpp)',
        CHAINER_DEBUG='1', CHAINER_TYPE_CHECK='0', CHAINER_DTYPE='float16',
        CHAINER_USE_CHAINERX_CPP='never')
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ['True', 'False', 'float16', 'never']


def test_compiled_core_environment_variable():
    code = ('import chainer; print(chainer.config.use_compiled_core, '
            'chainer.variable.Variable.__base__.__module__)')
    off = _run_with_env(code, CHAINER_USE_COMPILED_CORE='0')
    assert off.returncode == 0, off.stderr
    assert off.stdout.split() == ['False', 'chainer._core_fields']
    on = _run_with_env(code, CHAINER_USE_COMPILED_CORE='1')
    assert on.returncode == 0, on.stderr
    assert on.stdout.split()[0] == 'True'


def test_mixed16_environment_variable():
    result = _run_with_env(
        'import chainer; print(chainer.config.dtype)',
        CHAINER_DTYPE='mixed16')
    # As the original, which prints the object's repr.
    assert result.stdout.strip() == "dtype('mixed16')"


def test_bad_dtype_environment_variable():
    result = _run_with_env('import chainer', CHAINER_DTYPE='int8')
    assert result.returncode != 0
    assert 'incorrect dtype name in CHAINER_DTYPE' in result.stderr


def test_debug_mode_is_deprecated():
    with pytest.warns(DeprecationWarning, match='using_config'):
        mode = configuration.DebugMode(True)
    with mode:
        assert chainer.config.debug
    assert not chainer.config.debug


def test_print_runtime_info():
    out = io.StringIO()
    chainer.print_runtime_info(out)
    text = out.getvalue()
    runtime = io.StringIO()
    _runtime_info.print_runtime_info(runtime)
    assert runtime.getvalue() == str(_runtime_info._get_runtime_info())
    assert 'ChainerX: Not Available' in runtime.getvalue()
    assert 'Chainer: {}'.format(chainer.__version__) in text
    assert 'NumPy: {}'.format(numpy.__version__) in text
    assert chainer.__version__.startswith('7.')
    # It says which implementation this is.
    assert _runtime_info.IMPLEMENTATION in text


def test_chainerx_stub():
    import chainerx
    assert chainerx.is_available() is False


def test_array_type_helpers():
    a = numpy.ones(2)
    assert chainer.is_arrays_compatible([a, None, numpy.zeros(3)])
    assert chainer.is_arrays_compatible([])
    assert not chainer.is_arrays_compatible([a, [1, 2]])
    assert numpy.ndarray in chainer.get_array_types()
    assert chainer.get_cpu_array_types() == (numpy.ndarray,)


def test_fresh_configs_are_independent():
    global_config = configuration.GlobalConfig()
    config = configuration.LocalConfig(global_config)
    global_config.x = 'global x'
    config.y = 'local y'
    assert config.x == 'global x' and not hasattr(global_config, 'y')
    with pytest.raises(AttributeError):
        del config.x
    out = io.StringIO()
    config.show(out)
    assert out.getvalue() == 'x global x\ny local y\n'
    out = io.StringIO()
    global_config.show(out)
    assert out.getvalue() == 'x global x\n'


def test_using_config_can_be_entered_again():
    global_config = configuration.GlobalConfig()
    config = configuration.LocalConfig(global_config)
    global_config.x = 'global'
    context = chainer.using_config('x', 'temporary', config)
    for _ in range(2):
        with context:
            assert config.x == 'temporary'
        assert config.x == 'global'
        assert 'x' not in config._local.__dict__
