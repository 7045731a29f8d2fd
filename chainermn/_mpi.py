"""Lazy access to :mod:`mpi4py`, so that ``import chainermn`` works without it.

ChainerMN talks MPI through mpi4py. The package imports without mpi4py
installed; the first use that needs MPI raises an :class:`ImportError`
naming the packages to install.
"""

_MPI = None


def get_mpi():
    """Returns the :mod:`mpi4py.MPI` module, importing it on first use.

    Raises:
        ImportError: mpi4py (or an MPI library it can load) is missing.
    """
    global _MPI
    if _MPI is None:
        try:
            from mpi4py import MPI
        except ImportError as e:
            raise ImportError(
                '{}: ChainerMN requires mpi4py and an MPI library for '
                'distributed training; install them with '
                '`pip install mpi4py mpich` (or `pip install chainer[mpi]`)'
                .format(e)) from e
        _MPI = MPI
    return _MPI
