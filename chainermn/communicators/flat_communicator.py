"""The flat communicator: all gradients in one float32 allreduce."""

import numpy

import chainer

from chainermn import _mpi
from chainermn.communicators import _memory_utility
from chainermn.communicators import mpi_communicator_base


class FlatCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Packs every gradient into one float32 buffer and allreduces it.

    One large MPI call instead of one per array: fewer latencies on models
    with many small parameters. Gradients of any float dtype travel as
    float32, as Chainer does.
    """

    def __init__(self, mpi_comm):
        super().__init__(mpi_comm)
        self._buffer = _memory_utility.HostBuffer()

    def multi_node_mean_grad(self, model, zero_fill=False):
        params = _memory_utility.extract_params_set_grad(model, zero_fill)
        self._mean_packed(params, zero_fill, communicate=True)

    def _mean_packed(self, params, zero_fill, communicate):
        n_elems = _memory_utility.count_grad_elements(params, zero_fill)
        buffer = self._buffer.array(n_elems, numpy.float32)
        _memory_utility.pack_params(params, 'grad', buffer, zero_fill)
        scale = None
        if communicate:
            self.mpi_comm.Allreduce(_mpi.get_mpi().IN_PLACE, buffer)
            scale = numpy.float32(1.0 / self.size)
        _memory_utility.unpack_params(params, 'grad', buffer, zero_fill,
                                      scale=scale)
        if communicate and chainer.is_debug():
            for param in params:
                self._ensure_all_finite(param.grad)
