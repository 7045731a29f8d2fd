"""chainerx_cpp's malloc setting: opt-in, never applied at import."""

import os
import platform
import subprocess
import sys

import pytest

import chainerx_cpp

_GLIBC = platform.libc_ver()[0] == 'glibc'

# Frees a 3 MiB array (below NumPy's 4 MiB huge-page size) and counts the
# page faults of touching a new one of the same size.
_FAULTS_OF_A_SECOND_ARRAY = '''
import resource
import sys
import numpy
import chainer
import chainerx_cpp
if sys.argv[1] == 'call':
    chainerx_cpp.keep_freed_memory()
n = 3 * 2 ** 20 // 8
numpy.ones(n)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
a = numpy.ones(n)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
print(chainerx_cpp._malloc_setting)
'''

_MALLOC_VARIABLES = (
    'CHAINERX_CPP_KEEP_FREED_MEMORY', 'MALLOC_MMAP_THRESHOLD_',
    'MALLOC_TRIM_THRESHOLD_', 'GLIBC_TUNABLES')

needs_glibc_and_kernels = pytest.mark.skipif(
    not (_GLIBC and chainerx_cpp.is_available()),
    reason='glibc and the compiled kernels only')


def _run(how='import', **env):
    environ = dict(os.environ)
    for name in _MALLOC_VARIABLES:
        environ.pop(name, None)
    environ.update(env)
    out = subprocess.run(
        [sys.executable, '-c', _FAULTS_OF_A_SECOND_ARRAY, how], env=environ,
        check=True, capture_output=True, text=True).stdout.splitlines()
    return int(out[0]), out[1]


@needs_glibc_and_kernels
def test_import_keeps_glibcs_defaults():
    faults, setting = _run()
    assert setting == 'glibc defaults'
    assert faults > 500


@needs_glibc_and_kernels
def test_keep_freed_memory_reuses_freed_arrays_without_page_faults():
    faults, setting = _run('call')
    assert setting.startswith('blocks up to 32 MiB from the heap')
    assert faults < 100


@needs_glibc_and_kernels
def test_environment_variable_opts_in_at_import():
    faults, setting = _run(CHAINERX_CPP_KEEP_FREED_MEMORY='1')
    assert setting.startswith('blocks up to 32 MiB from the heap')
    assert faults < 100


@needs_glibc_and_kernels
@pytest.mark.parametrize('env', [
    {'MALLOC_TRIM_THRESHOLD_': str(1 << 20)},
    {'GLIBC_TUNABLES': 'glibc.malloc.mmap_threshold=65536'},
], ids=['MALLOC_TRIM_THRESHOLD_', 'GLIBC_TUNABLES'])
def test_the_users_malloc_settings_are_kept(env):
    _, setting = _run('call', **env)
    assert setting == 'as set by the environment'


def test_without_the_kernels_nothing_changes(monkeypatch):
    monkeypatch.setattr(chainerx_cpp, '_module', None)
    assert chainerx_cpp.keep_freed_memory() is False
