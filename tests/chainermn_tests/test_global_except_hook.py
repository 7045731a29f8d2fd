"""An uncaught exception on one rank ends the whole job.

The multi-rank cases run ``ranks/fail_on_one_rank.py`` under ``mpiexec``;
a job that hangs instead of ending fails the test when its timeout expires
(``mpiexec`` is killed, and its ranks with it).
"""

import os
import subprocess
import sys

import pytest

from chainermn import global_except_hook

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FAIL_ON_ONE_RANK = os.path.join(HERE, 'ranks', 'fail_on_one_rank.py')
CASES = ['scatter_dataset', 'bcast_obj', 'allreduce', 'optimizer',
         'evaluator', 'checkpoint']
# Seconds after which a job counts as hung (it ends in about two).
TIMEOUT = 60
ABORT_BANNER = 'Calling MPI_Abort() to shut down MPI...'
TRACEBACK = 'Traceback (most recent call last)'


def _assert_ended_by(result, failing_rank):
    """The job failed, with one traceback: that of ``failing_rank``."""
    output = result.stdout
    assert result.returncode != 0, output
    assert output.count(TRACEBACK) == 1, output
    assert output.count(
        'RuntimeError: failure on rank {}'.format(failing_rank)) == 1, output
    assert output.count(ABORT_BANNER) == 1, output
    assert output.count(
        'Uncaught exception on rank {}.'.format(failing_rank)) == 1, output


@pytest.mark.parametrize('failing_rank', [0, 1])
@pytest.mark.parametrize('case', CASES)
def test_exception_on_one_rank_ends_job(mpi_run, case, failing_rank):
    # The default: no environment variable, no ``-m mpi4py``.
    result = mpi_run([FAIL_ON_ONE_RANK, case, str(failing_rank)],
                     timeout=TIMEOUT, CHAINERMN_FORCE_ABORT_ON_EXCEPTION='')
    _assert_ended_by(result, failing_rank)


def test_communicator_class_called_directly_ends_job(mpi_run):
    result = mpi_run([FAIL_ON_ONE_RANK, 'bcast_obj', '0', 'direct'],
                     timeout=TIMEOUT, CHAINERMN_FORCE_ABORT_ON_EXCEPTION='')
    _assert_ended_by(result, 0)


@pytest.mark.parametrize('launcher, value', [
    ([], '1'),
    (['-m', 'mpi4py'], ''),
    (['-m', 'mpi4py'], '1'),
], ids=['environment-variable', 'python-m-mpi4py', 'both'])
def test_other_launchers_end_job(mpi_run, launcher, value):
    result = mpi_run(launcher + [FAIL_ON_ONE_RANK, 'scatter_dataset', '1'],
                     timeout=TIMEOUT,
                     CHAINERMN_FORCE_ABORT_ON_EXCEPTION=value)
    _assert_ended_by(result, 1)


# Rank 1 reports whether the hook is installed on each rank after creating
# communicators (with ``remove_hook()`` before, if asked), then raises;
# rank 0 exits normally, which does not hang. Rank 1 prints everything: the
# output of a rank that ``mpiexec`` kills may be lost.
_HOOK_STATE_SCRIPT = '''
import sys
import chainermn
from chainermn import global_except_hook
if sys.argv[1] == 'remove_hook':
    global_except_hook.remove_hook()
comm = chainermn.create_communicator('naive')
chainermn.create_communicator('naive')
installed = comm.gather_obj(
    sys.excepthook is global_except_hook._global_except_hook, root=1)
if comm.rank == 1:
    print('hook installed on the ranks: {}'.format(installed))
    raise RuntimeError('failure on rank 1')
'''


@pytest.mark.parametrize('how, value', [
    ('environment', '0'),
    ('environment', 'off'),
    ('remove_hook', ''),
])
def test_turned_off(mpi_run, how, value):
    result = mpi_run(['-c', _HOOK_STATE_SCRIPT, how], timeout=TIMEOUT,
                     CHAINERMN_FORCE_ABORT_ON_EXCEPTION=value)
    output = result.stdout
    assert 'hook installed on the ranks: [False, False]' in output, output
    assert result.returncode != 0, output
    assert output.count('RuntimeError: failure on rank 1') == 1, output
    assert ABORT_BANNER not in output, output


def test_multi_process_installs_hook(mpi_run):
    result = mpi_run(['-c', _HOOK_STATE_SCRIPT, 'default'], timeout=TIMEOUT,
                     CHAINERMN_FORCE_ABORT_ON_EXCEPTION='')
    assert 'hook installed on the ranks: [True, True]' in result.stdout, \
        result.stdout
    _assert_ended_by(result, 1)


# A single process, without mpiexec.
_SINGLE_PROCESS_SCRIPT = '''
import sys
hook = sys.excepthook
import chainermn
from chainermn import global_except_hook
installed_at_import = sys.excepthook is global_except_hook._global_except_hook
comm = chainermn.create_communicator('naive')
assert comm.size == 1
installed = sys.excepthook is global_except_hook._global_except_hook
print('installed at import: {}, after create_communicator: {}'.format(
    installed_at_import, installed))
sys.stdout.flush()
raise RuntimeError('failure in a single process')
'''


def _run_single_process(value):
    pytest.importorskip('mpi4py')
    env = dict(os.environ, CHAINERMN_FORCE_ABORT_ON_EXCEPTION=value)
    env['PYTHONPATH'] = os.pathsep.join(
        [ROOT] + [p for p in env.get('PYTHONPATH', '').split(os.pathsep)
                  if p])
    return subprocess.run(
        [sys.executable, '-c', _SINGLE_PROCESS_SCRIPT], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT,
        text=True)


def test_single_process_unchanged():
    result = _run_single_process('')
    output = result.stdout
    assert 'installed at import: False, after create_communicator: False' \
        in output
    assert result.returncode == 1, output
    assert output.count(TRACEBACK) == 1, output
    assert ABORT_BANNER not in output


def test_environment_variable_installs_at_import():
    # As in Chainer 7.8: at import, even in a single process.
    result = _run_single_process('1')
    output = result.stdout
    assert 'installed at import: True, after create_communicator: True' \
        in output
    assert result.returncode != 0, output
    assert output.count(TRACEBACK) == 1, output


@pytest.fixture
def fresh_hook_state(monkeypatch):
    """This process's hook state, restored after the test."""
    monkeypatch.setattr(sys, 'excepthook', sys.excepthook)
    monkeypatch.setattr(global_except_hook, '_orig_except_hook', None)
    monkeypatch.setattr(global_except_hook, '_removed_by_user', False)


def test_add_and_remove_hook(fresh_hook_state):
    previous = sys.excepthook
    global_except_hook.add_hook()
    assert sys.excepthook is global_except_hook._global_except_hook
    with pytest.warns(UserWarning, match='multiple times'):
        global_except_hook.add_hook()
    global_except_hook.remove_hook()
    assert sys.excepthook is previous
    global_except_hook.remove_hook()
    assert sys.excepthook is previous
    global_except_hook.add_hook()
    assert sys.excepthook is global_except_hook._global_except_hook


def test_removed_hook_only_prints(fresh_hook_state, capsys):
    # A hook installed later that wraps this one stays; this one then
    # prints without aborting.
    global_except_hook.add_hook()
    sys.excepthook = lambda *exc_info: global_except_hook \
        ._global_except_hook(*exc_info)
    wrapper = sys.excepthook
    global_except_hook.remove_hook()
    assert sys.excepthook is wrapper
    try:
        raise ValueError('printed only')
    except ValueError:
        sys.excepthook(*sys.exc_info())
    assert 'ValueError: printed only' in capsys.readouterr().err


@pytest.mark.parametrize('value, setting', [
    ('', None), ('  ', None), ('1', True), ('yes', True), ('0', False),
    ('false', False), ('OFF', False), ('No', False),
])
def test_environment_setting(monkeypatch, value, setting):
    monkeypatch.setenv('CHAINERMN_FORCE_ABORT_ON_EXCEPTION', value)
    assert global_except_hook._environment_setting() is setting


def test_unset_environment_is_default(monkeypatch, fresh_hook_state):
    monkeypatch.delenv('CHAINERMN_FORCE_ABORT_ON_EXCEPTION', raising=False)
    assert global_except_hook._environment_setting() is None
    previous = sys.excepthook
    # No hook at import without the variable.
    global_except_hook._add_hook_if_enabled()
    assert sys.excepthook is previous
