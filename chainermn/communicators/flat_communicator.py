"""The flat communicator: the gradients allreduced as one float32 stream."""

import numpy

import chainer

from chainermn import _mpi
from chainermn.communicators import _memory_utility
from chainermn.communicators import mpi_communicator_base


class FlatCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Packs the gradients into float32 buffers and allreduces those.

    Fewer, larger MPI calls than one per array: all gradients travel as
    one float32 stream, cut into windows of at most ``chunk_size``
    elements (an allreduce of a window that fits in the caches is faster
    than one of the whole stream). Gradients of any float dtype travel as
    float32, as Chainer does.
    """

    #: Elements of float32 per allreduce.
    chunk_size = 1 << 22

    def __init__(self, mpi_comm):
        super().__init__(mpi_comm)
        self._buffer = _memory_utility.HostBuffer()

    def multi_node_mean_grad(self, model, zero_fill=False):
        params = _memory_utility.extract_params_set_grad(model, zero_fill)
        self._mean_packed(params, communicate=True)
        if chainer.is_debug():
            for param in params:
                self._ensure_all_finite(param.grad)

    def _mean_packed(self, params, communicate):
        """Packs the gradients window by window, reduces, unpacks.

        With ``communicate`` false the values only make the round trip
        through the float32 buffer.
        """
        for param in params:
            if param.grad is None:
                param.grad = param.xp.zeros_like(param.array)
        n_elems = sum(param.grad.size for param in params)
        buffer = self._buffer.array(min(n_elems, self.chunk_size),
                                    numpy.float32)
        scale = numpy.float32(1.0 / self.size) if communicate else None
        in_place = _mpi.get_mpi().IN_PLACE if communicate else None
        pieces = []
        filled = 0
        for param in params:
            grad = _memory_utility.FlatGrad(param)
            begin = 0
            while begin < grad.size:
                end = min(grad.size, begin + self.chunk_size - filled)
                buffer[filled:filled + end - begin] = grad.read(begin, end)
                pieces.append((grad, begin, end, filled))
                filled += end - begin
                begin = end
                if filled == self.chunk_size:
                    self._reduce_window(buffer, filled, pieces, in_place,
                                        scale)
                    pieces, filled = [], 0
        if filled:
            self._reduce_window(buffer, filled, pieces, in_place, scale)

    def _reduce_window(self, buffer, filled, pieces, in_place, scale):
        window = buffer[:filled]
        if in_place is not None:
            self.mpi_comm.Allreduce(in_place, window)
        for grad, begin, end, offset in pieces:
            grad.write(begin, end, window[offset:offset + end - begin],
                       scale)
            if end == grad.size:
                grad.store()
