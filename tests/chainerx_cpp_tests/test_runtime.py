import os
import platform
import subprocess
import sys

import pytest


_GLIBC = platform.libc_ver()[0] == 'glibc'

# Frees a 3 MiB array (below NumPy's 4 MiB huge-page size) and counts the
# page faults of touching a new one of the same size.
_FAULTS_OF_A_SECOND_ARRAY = '''
import resource
import numpy
import chainerx_cpp
n = 3 * 2 ** 20 // 8
numpy.ones(n)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
a = numpy.ones(n)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
print(chainerx_cpp._malloc_setting)
'''


def _run(**env):
    environ = dict(os.environ)
    for name in ('CHAINERX_CPP_KEEP_FREED_MEMORY', 'MALLOC_MMAP_THRESHOLD_',
                 'MALLOC_TRIM_THRESHOLD_', 'GLIBC_TUNABLES'):
        environ.pop(name, None)
    environ.update(env)
    out = subprocess.run(
        [sys.executable, '-c', _FAULTS_OF_A_SECOND_ARRAY], env=environ,
        check=True, capture_output=True, text=True).stdout.splitlines()
    return int(out[0]), out[1]


@pytest.mark.skipif(not _GLIBC, reason='glibc only')
def test_freed_arrays_are_reused_without_page_faults():
    faults, setting = _run()
    assert setting.startswith('blocks up to 32 MiB from the heap')
    assert faults < 100


@pytest.mark.skipif(not _GLIBC, reason='glibc only')
def test_glibc_defaults_fault_on_every_page_of_the_new_array():
    faults, setting = _run(CHAINERX_CPP_KEEP_FREED_MEMORY='0')
    assert setting.startswith('glibc defaults')
    assert faults > 500


@pytest.mark.parametrize('env', [
    {'MALLOC_TRIM_THRESHOLD_': str(1 << 20)},
    {'GLIBC_TUNABLES': 'glibc.malloc.mmap_threshold=65536'},
], ids=['MALLOC_TRIM_THRESHOLD_', 'GLIBC_TUNABLES'])
def test_the_users_malloc_settings_are_kept(env):
    _, setting = _run(**env)
    assert setting == 'as set by the environment'
