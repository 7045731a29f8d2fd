"""Helpers shared by the communicators: rank layout and chunked broadcast."""

import pickle

import numpy

from chainermn import _mpi

#: Largest count one MPI call takes (a signed 32-bit int).
INT_MAX = 2147483647


def init_ranks(mpi_comm):
    """Returns where this process sits among the machines of ``mpi_comm``.

    Processes are grouped by their MPI processor name (one group per
    machine). Machines are numbered in the order of their lowest global
    rank, and the processes of a machine in the order of their global rank.

    Args:
        mpi_comm: An mpi4py communicator.

    Returns:
        list: ``[rank, intra_rank, intra_size, inter_rank, inter_size]``.
    """
    MPI = _mpi.get_mpi()
    names = mpi_comm.allgather(MPI.Get_processor_name())
    machines = {}
    for global_rank, name in enumerate(names):
        machines.setdefault(name, []).append(global_rank)
    inter_names = list(machines)  # insertion order: lowest rank first
    rank = mpi_comm.rank
    name = names[rank]
    local_ranks = machines[name]
    return [rank, local_ranks.index(rank), len(local_ranks),
            inter_names.index(name), len(inter_names)]


def init_intra_mpi_comm(mpi_comm, intra_rank, inter_rank):
    """Returns the communicator of the processes on this machine."""
    return mpi_comm.Split(inter_rank, intra_rank)


def init_inter_mpi_comm(mpi_comm, intra_rank, inter_rank):
    """Returns the communicator of the processes of equal intra rank."""
    return mpi_comm.Split(intra_rank, inter_rank)


def init_nccl_comm(mpi_comm):
    """Creates an NCCL communicator over the processes of ``mpi_comm``."""
    from chainermn import nccl
    nccl.check_available()
    uid = nccl.get_unique_id() if mpi_comm.rank == 0 else None
    uid = mpi_comm.bcast(uid)
    return nccl.NcclCommunicator(mpi_comm.size, uid, mpi_comm.rank)


def chunked_bcast_obj(obj, mpi_comm, max_buf_len=256 * 1024 * 1024, root=0):
    """Broadcasts a picklable object in chunks of at most ``max_buf_len``.

    An MPI message holds at most ``INT_MAX`` bytes, so the pickled object
    is broadcast piece by piece into one preallocated buffer.

    Args:
        obj: The object on ``root``; must be ``None`` on the other ranks.
        mpi_comm: An mpi4py communicator.
        max_buf_len (int): Bytes per chunk, ``0 < max_buf_len < INT_MAX``.
        root (int): The rank that holds the object.

    Returns:
        The object, on every rank.
    """
    assert 0 < max_buf_len < INT_MAX
    is_root = mpi_comm.rank == root
    assert (obj is not None) == is_root

    if is_root:
        payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        header = (len(payload), max_buf_len)
    else:
        header = None
    total, max_buf_len = mpi_comm.bcast(header, root=root)
    if not is_root:
        payload = bytearray(total)
    view = memoryview(payload)
    for begin in range(0, total, max_buf_len):
        mpi_comm.Bcast(view[begin:begin + max_buf_len], root=root)
    if is_root:
        return obj
    return pickle.loads(payload)


def _get_nccl_type_id(dtype):
    from chainermn import nccl
    dtype = numpy.dtype(dtype)
    if dtype == numpy.float16:
        return nccl.NCCL_FLOAT16
    if dtype == numpy.float32:
        return nccl.NCCL_FLOAT32
    if dtype == numpy.float64:
        return nccl.NCCL_FLOAT64
    raise ValueError('dtype must be float16, float32, or float64.')
