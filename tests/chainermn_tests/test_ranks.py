"""Runs the rank-level tests of ``ranks/`` as two real MPI ranks.

The files in ``ranks/`` (``rank_*.py``) are not collected by the default
test run: they need ``mpiexec``. Each is started with ``python -m mpi4py -m
pytest``, so that a failing rank aborts the whole job, and the test fails
when any rank fails.
"""

import os

import pytest

RANKS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ranks')


def _rank_files():
    return sorted(name for name in os.listdir(RANKS_DIR)
                  if name.startswith('rank_') and name.endswith('.py'))


@pytest.mark.parametrize('filename', _rank_files())
def test_two_ranks(mpi_run, filename):
    result = mpi_run(
        ['-m', 'mpi4py', '-m', 'pytest', os.path.join(RANKS_DIR, filename),
         '-q', '-x', '-p', 'no:cacheprovider', '-p', 'no:xdist',
         '-o', 'python_files=rank_*.py', '-W', 'ignore::FutureWarning'],
        timeout=300)
    assert result.returncode == 0, result.stdout[-6000:]
