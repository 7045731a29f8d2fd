"""The ChainerMN MNIST examples, run as two MPI ranks on the real MNIST."""

import json
import os

import pytest

EXAMPLE_DIR = os.path.join('examples', 'chainermn', 'mnist')


@pytest.mark.parametrize('script,args', [
    # Per-process batch 50: the global batch of the single-process example.
    ('train_mnist.py', ['--batchsize', '50']),
    ('train_mnist_model_parallel.py', ['--unit', '300']),
    ('train_mnist_dual_parallel.py', ['--unit', '300']),
])
def test_example_trains(mpi_run, mnist_mirror_env, tmp_path, script, args):
    out = tmp_path / 'result'
    result = mpi_run(
        [os.path.join(EXAMPLE_DIR, script), '--epoch', '1', '--out',
         str(out)] + args + (['--noplot'] if script == 'train_mnist.py'
                             else []),
        timeout=300, **mnist_mirror_env)
    assert result.returncode == 0, result.stdout[-4000:]
    with open(out / 'log') as f:
        log = json.load(f)
    assert len(log) == 1
    # One epoch of the single-process example reaches about 0.94.
    assert log[-1]['validation/main/accuracy'] > 0.9
