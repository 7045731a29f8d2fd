"""The naive communicator: one MPI allreduce per gradient array."""

from chainermn.communicators import _memory_utility
from chainermn.communicators import mpi_communicator_base


class NaiveCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Averages each gradient with its own in-place MPI allreduce.

    It runs on the CPU (and stages GPU arrays through the host), and is
    the communicator for CPU training and tests.
    """

    def __init__(self, mpi_comm):
        super().__init__(mpi_comm)

    def multi_node_mean_grad(self, model, zero_fill=False):
        for param in _memory_utility.extract_params_set_grad(
                model, zero_fill):
            if param.grad is None:
                param.grad = param.xp.zeros_like(param.array)
            self._multi_node_mean(None, param.grad)
