"""Ending the whole MPI job when one rank dies of an uncaught exception.

When one rank of an MPI job raises an exception that nothing catches,
Python prints the traceback and starts to exit, but the other ranks keep
waiting in their next collective operation (:func:`~chainermn.\
scatter_dataset`, ``bcast_obj``, the gradient allreduce of the multi-node
optimizer, the multi-node evaluator, a checkpoint...) for a rank that will
never join, and the dying rank itself waits in ``MPI_Finalize``. The job
hangs, its ranks spinning.

The hook of this module replaces :data:`sys.excepthook`: it prints the
traceback as Python would, then calls ``MPI_Abort`` on
``MPI.COMM_WORLD``, so that ``mpiexec`` ends every rank within seconds and
exits with a non-zero status. It acts where Python reports an uncaught
exception, not inside the collective operations, so every collective is
covered alike, and only the rank that raised prints its traceback.

When the hook is installed:

* By default, when a communicator is created
  (:func:`chainermn.create_communicator`, or a communicator class called
  directly) in a job of several processes (``MPI.COMM_WORLD`` has more
  than one rank). ``import chainermn`` and a single-process run (``python
  script.py``, without ``mpiexec``) change nothing.
* ``CHAINERMN_FORCE_ABORT_ON_EXCEPTION`` set to any other non-empty value
  than those below: at ``import chainermn``, even in a single process, as
  in Chainer 7.8.
* ``CHAINERMN_FORCE_ABORT_ON_EXCEPTION`` set to ``0`` (or ``false``,
  ``no``, ``off``): never automatically; the job behaves as in Chainer 7.8
  without the variable, and may hang when one rank fails.
* :func:`add_hook` installs it at once; :func:`remove_hook` uninstalls it
  and keeps the communicators created afterwards from installing it again,
  which turns the default off from the script itself.

An environment variable must reach every rank: MPICH's ``mpiexec`` passes
its own environment on (``-genv NAME VALUE`` sets one explicitly), Open
MPI's needs ``-x NAME=VALUE`` on remote hosts.

The hook does not see an exception raised in a thread other than the main
one, nor ``sys.exit()`` with a non-zero status (Python does not pass
:class:`SystemExit` to :data:`sys.excepthook`). Running the script as
``python -m mpi4py script.py`` also aborts the job on those exits; it works
together with the hook, the traceback being printed once.
"""

import os
import sys
import time
import warnings

_ENVIRONMENT_VARIABLE = 'CHAINERMN_FORCE_ABORT_ON_EXCEPTION'
_OFF_VALUES = frozenset(('0', 'false', 'no', 'off'))
_OUTPUT_GRACE_SECONDS = 0.5

# The sys.excepthook that the installed hook replaced; None while the hook
# is not installed.
_orig_except_hook = None
# Whether remove_hook() was called: communicators created afterwards leave
# sys.excepthook alone.
_removed_by_user = False


def _global_except_hook(exctype, value, traceback):
    """Prints the exception, then aborts every rank with ``MPI_Abort``."""
    print_exception = _orig_except_hook or sys.__excepthook__
    try:
        print_exception(exctype, value, traceback)
    finally:
        if _orig_except_hook is not None:
            _abort_job()


def _abort_job():
    """Calls ``MPI_Abort`` on ``MPI.COMM_WORLD`` if MPI is running."""
    # A process that never loaded mpi4py.MPI has no job to end, and loading
    # it here would start MPI.
    MPI = sys.modules.get('mpi4py.MPI')
    if MPI is None or not MPI.Is_initialized() or MPI.Is_finalized():
        return
    rank = MPI.COMM_WORLD.Get_rank()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    # The banner Chainer 7.8's ChainerMN prints, line for line.
    rule = '*' * 42
    sys.stderr.write(
        '\n{rule}\nChainerMN:\n   Uncaught exception on rank {rank}.\n'
        '   Calling MPI_Abort() to shut down MPI...\n{rule}\n\n\n'.format(
            rule=rule, rank=rank))
    sys.stderr.flush()
    # mpiexec forwards what a rank prints, and may end the job before it
    # has forwarded the traceback: give it that time.
    time.sleep(_OUTPUT_GRACE_SECONDS)
    try:
        MPI.COMM_WORLD.Abort(1)
    except Exception:
        sys.stderr.write('ChainerMN: MPI_Abort() failed; the other ranks '
                         'may keep waiting.\n')
        sys.stderr.flush()
        raise


def _environment_setting():
    """Reads ``CHAINERMN_FORCE_ABORT_ON_EXCEPTION``.

    Returns:
        bool or None: ``True`` if it forces the hook, ``False`` if it turns
        it off, ``None`` (unset or empty) for the default.
    """
    value = os.environ.get(_ENVIRONMENT_VARIABLE, '').strip()
    if not value:
        return None
    return value.lower() not in _OFF_VALUES


def _add_hook_if_enabled():
    """Installs the hook if the environment variable forces it.

    ``import chainermn`` calls it, as Chainer 7.8 does.
    """
    if _environment_setting():
        add_hook()


def _add_hook_if_multi_process():
    """Installs the hook if this process is one of several MPI ranks.

    Every MPI communicator calls it when it is created, once the script has
    started MPI. Nothing happens if the hook is installed already, if
    :func:`remove_hook` was called, or if the environment variable turns
    the hook off.
    """
    if (_orig_except_hook is not None or _removed_by_user
            or _environment_setting() is False):
        return
    from chainermn import _mpi
    MPI = _mpi.get_mpi()
    if MPI.Is_initialized() and MPI.COMM_WORLD.Get_size() > 1:
        add_hook()


def add_hook():
    """Installs the hook that aborts all ranks on an uncaught exception.

    It takes effect at once, whatever the number of processes and the
    environment. The hook calls the :data:`sys.excepthook` it replaces to
    print the exception. A second call warns and does nothing.
    """
    global _orig_except_hook
    if _orig_except_hook is not None:
        warnings.warn('chainermn.global_except_hook.add_hook() '
                      'seems to be called multiple times. Ignoring.',
                      stacklevel=2)
        return
    _orig_except_hook = sys.excepthook
    sys.excepthook = _global_except_hook


def remove_hook():
    """Uninstalls the hook and keeps communicators from installing it.

    Restores the :data:`sys.excepthook` that :func:`add_hook` replaced. If
    another hook has wrapped this one since, that hook stays, and this one
    only prints from then on. Communicators created afterwards do not
    install the hook again; :func:`add_hook` still does.
    """
    global _orig_except_hook, _removed_by_user
    _removed_by_user = True
    if _orig_except_hook is None:
        return
    if sys.excepthook is _global_except_hook:
        sys.excepthook = _orig_except_hook
    _orig_except_hook = None
