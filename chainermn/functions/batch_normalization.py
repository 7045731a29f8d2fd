"""Batch statistics over the batches of all ranks."""

from chainer import backend
from chainer.functions.normalization import batch_normalization


class _MpiImpl(batch_normalization.GeneralBatchNormalizationImpl):
    """Computes the batch statistics and their gradients over all ranks.

    Each rank reduces its own batch, then the ranks average the reductions
    in one communication (mean and mean of squares forward; the sums of
    ``gy`` and ``gy * x_hat`` backward).
    """

    def __init__(self, comm):
        self.comm = comm

    def _mean_over_ranks(self, first, second, gamma):
        xp = backend.get_array_module(first)
        size = gamma.size
        buffer = xp.empty(size * 2, dtype=gamma.dtype)
        buffer[:size] = first.reshape(-1)
        buffer[size:] = second.reshape(-1)
        self.comm._multi_node_mean(None, buffer)
        return (buffer[:size].reshape(gamma.shape),
                buffer[size:].reshape(gamma.shape))

    def get_mean_and_var(self, axis, gamma, x, xp, interm_dtype):
        mean, sqmean = self._mean_over_ranks(
            x.mean(axis=axis, dtype=gamma.dtype),
            xp.square(x).mean(axis=axis, dtype=gamma.dtype), gamma)
        return mean, sqmean - xp.square(mean)

    def get_ggamma_and_gbeta(self, axis, gamma, gy, x_hat, xp):
        return self._mean_over_ranks(
            gy.sum(axis=axis, dtype=gamma.dtype),
            (gy * x_hat).sum(axis=axis, dtype=gamma.dtype), gamma)


def get_communication_backend(comm, communication_backend='auto'):
    """Checks and resolves the backend name of the batch statistics.

    Args:
        comm: ChainerMN communicator.
        communication_backend (str): ``'mpi'``, ``'nccl'`` (only with the
            ``pure_nccl`` communicator) or ``'auto'`` (``'nccl'`` with
            ``pure_nccl``, ``'mpi'`` otherwise).

    Returns:
        str: ``'mpi'`` or ``'nccl'``.
    """
    if communication_backend not in ('mpi', 'nccl', 'auto'):
        raise ValueError('MultiNodeBatchNormalization does not support '
                         '{}.'.format(communication_backend))
    from chainermn.communicators.pure_nccl_communicator import \
        PureNcclCommunicator
    is_nccl = isinstance(comm, PureNcclCommunicator)
    if communication_backend == 'auto':
        return 'nccl' if is_nccl else 'mpi'
    if communication_backend == 'nccl' and not is_nccl:
        raise ValueError('{} is not supported in MultiNodeBatchNormalization '
                         'when using {}.'.format(communication_backend,
                                                 type(comm)))
    return communication_backend


class MultiNodeBNImplSelector:
    """Gives :class:`~chainer.functions.BatchNormalization` the multi-rank
    statistics.

    Both backends go through the communicator's mean, which the
    ``pure_nccl`` communicator runs with NCCL on GPU arrays.
    """

    def __init__(self, comm, communication_backend_name):
        self.comm = comm
        self.communication_backend_name = communication_backend_name

    def __call__(self, batch_norm_func, inputs):
        return _MpiImpl(self.comm)
