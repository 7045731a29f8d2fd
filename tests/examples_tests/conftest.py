"""Fixtures that run the bundled examples as their users do: as scripts."""

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import numpy
import pytest

EXAMPLES_DIR = pathlib.Path(__file__).resolve().parents[2] / 'examples'
SHARED_MNIST_DIR = (pathlib.Path(__file__).resolve().parents[3]
                    / 'shared' / 'data' / 'mnist')


def _load_example_module(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope='session')
def mnist_env(tmp_path_factory):
    """Environment variables pointing the MNIST loader at a local mirror.

    The mirror, written by examples/mnist/make_local_mnist.py, is a
    ``file://`` directory holding the real MNIST test set re-packed as the
    four files the loader expects: its first 8,000 images for training,
    the last 2,000 for testing. The dataset root (where the loader caches)
    is a fresh temporary directory.
    """
    if not SHARED_MNIST_DIR.is_dir():
        pytest.skip('the real MNIST files are not at {} (they are beside '
                    'the checkout in CI only)'.format(SHARED_MNIST_DIR))
    make_local_mnist = _load_example_module(
        EXAMPLES_DIR / 'mnist' / 'make_local_mnist.py')
    root = tmp_path_factory.mktemp('mnist')
    make_local_mnist.make_mirror(str(SHARED_MNIST_DIR), str(root / 'mirror'))
    return {
        'CHAINER_MNIST_BASE_URL': (root / 'mirror').as_uri() + '/',
        'CHAINER_DATASET_ROOT': str(root / 'dataset_root'),
    }


def _run_example(script, args, cwd, env=None, timeout=300, returncode=0):
    """Runs an example script in a fresh interpreter and returns its output.

    Args:
        script (str): Path of the script under ``examples/``.
        args (list of str): Its command-line arguments.
        cwd: Working directory.
        env (dict): Environment variables added to the current ones.
        timeout (float): Seconds before the run counts as hung.
        returncode (int): The exit status expected.

    Returns:
        str: What the script printed (stdout and stderr together).
    """
    full_env = dict(os.environ, MPLBACKEND='Agg')
    # Several test workers share few cores: a BLAS thread pool per process
    # would only make them wait for each other.
    full_env.setdefault('OPENBLAS_NUM_THREADS', '1')
    full_env.setdefault('OMP_NUM_THREADS', '1')
    if env:
        full_env.update(env)
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES_DIR / script)] + [str(a) for a in args],
        cwd=str(cwd), env=full_env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, timeout=timeout)
    assert proc.returncode == returncode, (
        '{} exited with {}:\n{}'.format(script, proc.returncode,
                                        proc.stdout[-5000:]))
    return proc.stdout


@pytest.fixture(scope='session')
def run_example():
    """The function that runs an example script (see ``_run_example``)."""
    return _run_example


@pytest.fixture
def read_log():
    """The function that reads a LogReport log (a JSON list of entries)."""
    def read(path):
        with open(path) as f:
            return json.load(f)
    return read


@pytest.fixture
def read_npz():
    """The function that returns the arrays of an .npz file as a dict."""
    def read(path):
        with numpy.load(path) as npz:
            return {key: npz[key] for key in npz.files}
    return read
