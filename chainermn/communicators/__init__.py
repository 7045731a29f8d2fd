"""Communicators and :func:`create_communicator`."""

from chainer.utils import argument

from chainermn import _mpi
from chainermn.communicators.communicator_base import CommunicatorBase  # NOQA


def _naive():
    from chainermn.communicators.naive_communicator import NaiveCommunicator
    return NaiveCommunicator


def _flat():
    from chainermn.communicators.flat_communicator import FlatCommunicator
    return FlatCommunicator


def _non_cuda_aware():
    from chainermn.communicators.non_cuda_aware_communicator import \
        NonCudaAwareCommunicator
    return NonCudaAwareCommunicator


def _pure_nccl():
    from chainermn.communicators.pure_nccl_communicator import \
        PureNcclCommunicator
    return PureNcclCommunicator


def _dummy():
    from chainermn.communicators.dummy_communicator import DummyCommunicator
    return DummyCommunicator


_COMMUNICATORS = {
    'naive': _naive,
    'flat': _flat,
    'non_cuda_aware': _non_cuda_aware,
    'pure_nccl': _pure_nccl,
    'dummy': _dummy,
}

# Communicators of ChainerMN before Chainer 7, which Chainer 7 removed.
_REMOVED = ('hierarchical', 'two_dimensional', 'single_node')


def create_communicator(communicator_name='pure_nccl', mpi_comm=None,
                        **kwargs):
    """Creates a ChainerMN communicator.

    ============== === === ============================================
    name           CPU GPU notes
    ============== === === ============================================
    pure_nccl          yes NCCL through CuPy; the default
    flat           yes yes gradients packed into float32 allreduces
    non_cuda_aware yes yes as flat, staged through host memory
    naive          yes yes one allreduce per gradient array
    dummy          yes yes packs gradients, communicates nothing
    ============== === === ============================================

    In a job of several processes, it also installs
    :mod:`chainermn.global_except_hook`, so that an uncaught exception on
    any rank ends the whole job instead of leaving the other ranks waiting
    in a collective operation; ``CHAINERMN_FORCE_ABORT_ON_EXCEPTION=0``
    or :func:`chainermn.global_except_hook.remove_hook` turns that off.

    ``pure_nccl`` exchanges gradients in ``allreduce_grad_dtype``: when it
    is ``None``, float32 if ``chainer.config.dtype`` is float32 and float16
    otherwise. The MPI communicators average in float32.

    Args:
        communicator_name (str): One of the names above.
        mpi_comm: The mpi4py communicator to use; ``None`` for
            ``mpi4py.MPI.COMM_WORLD``.
        allreduce_grad_dtype: Dtype of the gradient exchange, for
            ``pure_nccl`` only.
        batched_copy (bool): Whether gradients are packed in one batch.

    Returns:
        CommunicatorBase: The communicator.

    Raises:
        ImportError: mpi4py is missing.
        ValueError: Unknown name, or ``allreduce_grad_dtype`` given to
            another communicator than ``pure_nccl``.
        RuntimeError: ``pure_nccl`` without CuPy and NCCL.
    """
    allreduce_grad_dtype, batched_copy = argument.parse_kwargs(
        kwargs, ('allreduce_grad_dtype', None), ('batched_copy', True))
    argument.assert_kwargs_empty(kwargs)

    if communicator_name != 'pure_nccl' and allreduce_grad_dtype is not None:
        raise ValueError('allreduce_grad_dtype is only available at '
                         '\'pure_nccl\' communicator.')
    if communicator_name not in _COMMUNICATORS:
        message = 'Unrecognized communicator: "{}"'.format(communicator_name)
        if communicator_name in _REMOVED:
            message += (" (removed in Chainer 7: use 'pure_nccl' on GPUs, "
                        "'naive' or 'flat' on the CPU)")
        raise ValueError(message)

    if mpi_comm is None:
        mpi_comm = _mpi.get_mpi().COMM_WORLD
    comm = _COMMUNICATORS[communicator_name]()(mpi_comm=mpi_comm)
    if communicator_name == 'pure_nccl':
        comm.set_config('allreduce_grad_dtype', allreduce_grad_dtype)
    comm.set_config('batched_copy', batched_copy)
    return comm
