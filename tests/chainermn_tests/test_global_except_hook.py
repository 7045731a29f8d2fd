"""An exception on one rank ends the whole job quickly."""

import time

import pytest

# Rank 1 raises while rank 0 waits for a message that never comes.
_SCRIPT = '''
import chainermn
comm = chainermn.create_communicator('naive')
if comm.rank == 1:
    raise RuntimeError('failure on rank 1')
comm.recv_obj(source=1)
'''


@pytest.mark.parametrize('launcher', [
    ['-c', _SCRIPT],
    ['-m', 'mpi4py', '-c', _SCRIPT],
], ids=['environment-variable', 'python-m-mpi4py'])
def test_rank_exception_aborts_job(mpi_run, launcher):
    start = time.monotonic()
    result = mpi_run(launcher, timeout=60,
                     CHAINERMN_FORCE_ABORT_ON_EXCEPTION='1')
    elapsed = time.monotonic() - start
    assert result.returncode != 0, result.stdout
    assert elapsed < 10, elapsed

