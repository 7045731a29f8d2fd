"""Fixtures of the chainermn tests: running code as real MPI ranks.

The rank-level tests live in ``ranks/rank_*.py``, which the default test
run does not collect (they need ``mpiexec``); ``test_ranks.py`` starts them.
"""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
RANKS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ranks')


def mpiexec_command():
    """The ``mpiexec`` beside this Python, or on the PATH; skips if none."""
    try:
        import mpi4py  # NOQA
    except ImportError:
        pytest.skip('mpi4py is not installed (pip install mpi4py mpich)')
    candidate = os.path.join(os.path.dirname(sys.executable), 'mpiexec')
    if os.path.exists(candidate):
        return candidate
    found = shutil.which('mpiexec')
    if found is None:
        pytest.skip('mpiexec is not available (pip install mpich)')
    return found


def environment(**extra):
    """The environment of the ranks: this checkout first on the path."""
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join(
        [ROOT] + [p for p in env.get('PYTHONPATH', '').split(os.pathsep)
                  if p])
    env.setdefault('OPENBLAS_NUM_THREADS', '1')
    env.update(extra)
    return env


def run_ranks(args, n=2, timeout=300, **extra_env):
    """Runs ``python args...`` as ``n`` ranks; returns the finished process.

    Args:
        args (list of str): Arguments of the Python interpreter.
        n (int): Number of ranks.
        timeout (float): Seconds before the job is killed (the test fails).
        extra_env: Environment variables to add.
    """
    command = [mpiexec_command(), '-n', str(n), sys.executable] + list(args)
    return subprocess.run(command, cwd=ROOT, env=environment(**extra_env),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=timeout, text=True)


@pytest.fixture
def mpi_run():
    """The :func:`run_ranks` function."""
    return run_ranks


SHARED_MNIST_DIR = os.path.join(os.path.dirname(ROOT), 'shared', 'data',
                                'mnist')


@pytest.fixture(scope='session')
def mnist_mirror_env(tmp_path_factory):
    """Environment variables pointing the MNIST loader at a local mirror
    of the real MNIST test set (see ``examples/mnist/make_local_mnist.py``).
    """
    if not os.path.isdir(SHARED_MNIST_DIR):
        pytest.skip('the real MNIST files are not at {} (they are beside '
                    'the checkout in CI only)'.format(SHARED_MNIST_DIR))
    import importlib.util
    path = os.path.join(ROOT, 'examples', 'mnist', 'make_local_mnist.py')
    spec = importlib.util.spec_from_file_location('make_local_mnist', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    root = tmp_path_factory.mktemp('chainermn_mnist')
    module.make_mirror(SHARED_MNIST_DIR, str(root / 'mirror'))
    return {
        'CHAINER_MNIST_BASE_URL': (root / 'mirror').as_uri() + '/',
        'CHAINER_DATASET_ROOT': str(root / 'dataset_root'),
    }
