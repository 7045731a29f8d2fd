"""train_mnist.py killed mid-run and restarted with --autoload.

The restarted run must end with the same log as a run never interrupted.
Both runs seed NumPy's global generator before the script starts, so the
initial weights and the shuffling orders are the same: the order of the
second epoch is drawn at the end of the first, before the snapshot, and
travels in it.
"""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

EXAMPLES_DIR = pathlib.Path(__file__).resolve().parents[3] / 'examples'

_SEEDED = (
    'import runpy, sys, numpy; numpy.random.seed(3); '
    'sys.argv = [sys.argv[1]] + sys.argv[2:]; '
    'runpy.run_path(sys.argv[0], run_name="__main__")')
_ARGS = ['--epoch', '2', '--unit', '100', '--batchsize', '20',
         '--frequency', '1', '--noplot']


def _command(out):
    return [sys.executable, '-c', _SEEDED,
            str(EXAMPLES_DIR / 'mnist' / 'train_mnist.py')] + _ARGS + [
                '--out', str(out), '--autoload']


def _env(mnist_env):
    env = dict(os.environ, MPLBACKEND='Agg', OPENBLAS_NUM_THREADS='1')
    env.update(mnist_env)
    return env


def _log_without_times(path):
    with open(path) as f:
        log = json.load(f)
    for entry in log:
        del entry['elapsed_time']
    return log


def test_killed_run_resumes_to_the_same_log(tmp_path, mnist_env):
    env = _env(mnist_env)
    whole = tmp_path / 'whole'
    subprocess.run(_command(whole), env=env, check=True, timeout=600,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    broken = tmp_path / 'broken'
    proc = subprocess.Popen(_command(broken), env=env,
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    first_snapshot = broken / 'snapshot_iter_400'
    deadline = time.time() + 600
    while not first_snapshot.exists() and proc.poll() is None:
        if time.time() > deadline:
            proc.kill()
            pytest.fail('no snapshot was written in time')
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    if (broken / 'snapshot_iter_800').exists():
        pytest.skip('the run finished before it could be killed')
    # Nothing half-written is left under a snapshot's name.
    assert sorted(p for p in os.listdir(broken)
                  if p.startswith('snapshot')) == ['snapshot_iter_400']

    subprocess.run(_command(broken), env=env, check=True, timeout=600,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert _log_without_times(broken / 'log') == \
        _log_without_times(whole / 'log')
