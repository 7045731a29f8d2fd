import collections
import json
import os
import random
import subprocess
import sys
import zlib

import numpy
import pytest


def _gpu_available():
    try:
        import cupy
    except Exception:
        return False
    try:
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def pytest_collection_modifyitems(config, items):
    if _gpu_available():
        return
    skip_gpu = pytest.mark.skip(reason='CuPy with a CUDA GPU is not available')
    for item in items:
        if 'gpu' in item.keywords or 'cudnn' in item.keywords \
                or 'multi_gpu' in item.keywords:
            item.add_marker(skip_gpu)


# The compiled kernels that a test runs: the tests that compare the NumPy
# paths with the kernels check with it that the kernels did run.

class KernelCalls(list):
    """The names of the compiled kernels that the operations ran through
    ``chainer._kernels``, in order.

    A kernel that reports a case as one it does not cover (it raises
    ``Unsupported``, and the operation runs its NumPy code instead) is not
    in the list but in :attr:`refused`; one that raises another error (for
    a bad label, say) ran, and is in the list.
    """

    def __init__(self, available):
        super().__init__()
        #: Whether the kernels are built (no operation runs them if not).
        self.available = available
        self.refused = []
        self._to_refuse = ()

    def clear(self):
        super().clear()
        self.refused.clear()

    def refuse(self, *prefixes):
        """Makes the kernels whose names start with one of ``prefixes``
        refuse every case, as a kernel does with a case it does not cover.
        """
        self._to_refuse = prefixes

    def check(self, ran, refused=()):
        """Asserts that each kernel named in ``ran`` ran (at least as many
        times as it is named), and that those named in ``refused``, and no
        other, refused their cases.

        With ``ran`` empty, asserts that no kernel ran at all: the
        operations took their NumPy code on purpose.
        """
        assert set(self.refused) == set(refused), (
            'kernels refused their cases, which then ran on NumPy: {} '
            '(expected: {})'.format(self.refused, sorted(refused)))
        if ran:
            missing = collections.Counter(ran) - collections.Counter(self)
            assert not missing, 'kernels did not run: {} (ran: {})'.format(
                sorted(missing.elements()), list(self))
        else:
            assert not self, 'kernels ran where none should: {}'.format(
                list(self))


class _RecordingKernels:
    # Stands for the kernel module and records the kernels called.

    def __init__(self, module, calls):
        self._module = module
        self._calls = calls

    def __getattr__(self, name):
        kernel = getattr(self._module, name)
        if not callable(kernel) or isinstance(kernel, type):
            return kernel
        calls = self._calls
        unsupported = self._module.Unsupported

        def record(*args, **kwargs):
            refused = name.startswith(calls._to_refuse)
            try:
                if refused:
                    raise unsupported('refused by the test')
                return kernel(*args, **kwargs)
            except unsupported:
                refused = True
                raise
            finally:
                (calls.refused if refused else calls).append(name)
        return record


@pytest.fixture
def kernel_calls(monkeypatch):
    """A :class:`KernelCalls` of the kernels run during the test."""
    from chainer import _kernels
    calls = KernelCalls(_kernels._module is not None)
    if calls.available:
        monkeypatch.setattr(
            _kernels, '_module', _RecordingKernels(_kernels._module, calls))
    return calls


@pytest.fixture(params=['python', 'compiled'])
def core(request):
    """Runs the test on the Python autograd core, then on the compiled one
    (skipped where the compiled core is off)."""
    from chainer import _compiled_core
    if request.param == 'compiled':
        if _compiled_core.compiled_core is None:
            pytest.skip('the compiled core is off (CHAINER_USE_COMPILED_CORE)')
        _compiled_core.use(_compiled_core.compiled_core)
    else:
        _compiled_core.use(_compiled_core.python_core)
    yield request.param
    _compiled_core.use(_compiled_core.compiled_core
                       or _compiled_core.python_core)


# Every test, and every test module as it is imported, starts from random
# states seeded from its own name and a base seed, so that a test's
# outcome depends neither on the tests run before it in the same worker
# nor on the order in which pytest-xdist hands tests out. The base seed is
# 0 unless --random-seed or CHAINER_TEST_SEED gives another: runs with
# different seeds show which tests hold only by luck. (Tests decorated
# with chainer.testing.fix_random reseed themselves with its fixed seeds.)

def pytest_addoption(parser):
    parser.addoption(
        '--random-seed', type=int, default=None,
        help='base seed of the random states of each test (default: '
        '$CHAINER_TEST_SEED or 0)')


def _base_seed(config):
    seed = config.getoption('--random-seed')
    if seed is None:
        seed = int(os.environ.get('CHAINER_TEST_SEED', '0'))
    return seed


def _seed_random_states(config, name):
    seed = zlib.crc32('{}:{}'.format(_base_seed(config), name).encode())
    random.seed(seed)
    numpy.random.seed(seed)


def pytest_report_header(config):
    return 'random seed: {} (--random-seed, CHAINER_TEST_SEED)'.format(
        _base_seed(config))


def pytest_collectstart(collector):
    if isinstance(collector, pytest.Module):
        _seed_random_states(collector.config, collector.nodeid)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _seed_random_states(item.config, item.nodeid)


_IMPORT_WITH_FAILING_MODULE = '''
import importlib.abc
import json
import sys
import warnings


class Failing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == {module!r}:
            raise {error}


sys.meta_path.insert(0, Failing())
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    import chainer
runtime_warnings = [str(w.message) for w in caught
                    if issubclass(w.category, RuntimeWarning)]
'''


@pytest.fixture
def import_with_failing_module():
    """``run(module, error, code, env=None)`` imports Chainer in a new Python
    in which importing ``module`` raises ``error`` (an expression; ``name``
    is the module's name), then runs ``code``, which may read the messages
    of the RuntimeWarnings of the import in ``runtime_warnings``; returns
    what ``code`` printed, read as JSON. ``env``, a dict, is added to the
    environment, without the switches CHAINER_USE_COMPILED_CORE and
    CHAINER_USE_CHAINERX_CPP of this process."""
    def run(module, error, code, env=None):
        environ = dict(os.environ)
        environ.pop('CHAINER_USE_COMPILED_CORE', None)
        environ.pop('CHAINER_USE_CHAINERX_CPP', None)
        environ.update(env or {})
        script = _IMPORT_WITH_FAILING_MODULE.format(
            module=module, error=error) + code
        out = subprocess.run(
            [sys.executable, '-c', script], env=environ, check=True,
            capture_output=True, text=True).stdout
        return json.loads(out)
    return run
