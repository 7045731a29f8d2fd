"""The communicator for an MPI library without CUDA support."""

from chainermn.communicators import flat_communicator


class NonCudaAwareCommunicator(flat_communicator.FlatCommunicator):
    """Averages gradients through host memory.

    The gradients are packed into one float32 buffer, copied to the host
    when they live on a GPU, allreduced by MPI there and copied back, so
    the MPI library needs no CUDA support. On the CPU it behaves as the
    ``flat`` communicator.
    """

    def __init__(self, mpi_comm):
        super().__init__(mpi_comm)
        self.inter_mpi_comm = None
        self.intra_nccl_comm = None

    def _init_comms(self):
        """Nothing to set up: every transfer goes through MPI."""
