"""Abort the whole MPI job when one rank dies of an uncaught exception.

An MPI runtime tears the job down when a process exits abnormally, but a
Python process that raises usually waits in ``MPI_Finalize`` or leaves the
other ranks blocked in a collective, and the job hangs. The hook installed
by :func:`add_hook` prints the traceback, then calls ``MPI_Abort`` so that
``mpiexec`` ends every rank with a non-zero exit status.

``import chainermn`` installs it when the environment variable
``CHAINERMN_FORCE_ABORT_ON_EXCEPTION`` is set to a non-empty value (pass it
to every rank: ``mpiexec -env`` with MPICH, ``-x`` with Open MPI).
Running the script as ``python -m mpi4py script.py`` has the same effect.
"""

import os
import sys
import warnings

_orig_except_hook = None


def _global_except_hook(exctype, value, traceback):
    """Prints the exception, then aborts every rank with ``MPI_Abort``."""
    try:
        if _orig_except_hook:
            _orig_except_hook(exctype, value, traceback)
        else:
            sys.__excepthook__(exctype, value, traceback)
    finally:
        from chainermn import _mpi
        MPI = _mpi.get_mpi()
        rank = MPI.COMM_WORLD.Get_rank()
        sys.stderr.write(
            '\n******************************************\n'
            'ChainerMN:\n'
            '   Uncaught exception on rank {}.\n'
            '   Calling MPI_Abort() to shut down MPI...\n'
            '******************************************\n\n\n'
            .format(rank))
        sys.stderr.flush()
        try:
            MPI.COMM_WORLD.Abort(1)
        except Exception:
            sys.stderr.write(
                'Sorry, failed to stop MPI and the process may hang.\n')
            sys.stderr.flush()
            raise


def _add_hook_if_enabled():
    if os.environ.get('CHAINERMN_FORCE_ABORT_ON_EXCEPTION'):
        add_hook()


def add_hook():
    """Installs the hook that aborts all ranks on an uncaught exception."""
    global _orig_except_hook
    if _orig_except_hook is not None:
        warnings.warn('chainermn.global_except_hook.add_hook() '
                      'seems to be called multiple times. Ignoring.',
                      stacklevel=2)
        return
    _orig_except_hook = sys.excepthook
    sys.excepthook = _global_except_hook
