"""The NCCL communicator: gradients allreduced on the GPUs by NCCL."""

import numpy

import chainer
from chainer import backend

from chainermn import nccl
from chainermn.communicators import _communication_utility
from chainermn.communicators import _memory_utility
from chainermn.communicators import mpi_communicator_base


_ALLREDUCE_DTYPES = (numpy.float16, numpy.float32, numpy.float64)


class PureNcclCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Averages gradients with one NCCL allreduce over all GPUs.

    It needs CuPy built with NCCL, and one GPU per process (select it with
    ``chainer.get_device(comm.intra_rank).use()`` before the first
    gradient mean). The gradients travel in ``allreduce_grad_dtype``; when
    that is ``None``, in float32 if ``chainer.config.dtype`` is float32 and
    in float16 otherwise, as Chainer does.

    Raises:
        RuntimeError: CuPy or NCCL is not available.
    """

    def __init__(self, mpi_comm):
        nccl.check_available()
        super().__init__(mpi_comm)
        self.nccl_comm = None
        with self.config_scope():
            self.allreduce_grad_dtype = None

    def set_config(self, name, value=True, **kwargs):
        if name == 'allreduce_grad_dtype':
            if value is not None:
                value = numpy.dtype(value)
                if value not in [numpy.dtype(t) for t in _ALLREDUCE_DTYPES]:
                    raise ValueError(
                        'allreduce_grad_dtype must be numpy.float16, '
                        'numpy.float32, numpy.float64, or None.')
            with self.config_scope():
                self.allreduce_grad_dtype = value
        else:
            super().set_config(name, value, **kwargs)

    def get_config(self, name=None):
        if name == 'allreduce_grad_dtype':
            return self.allreduce_grad_dtype
        return super().get_config(name)

    def finalize(self):
        super().finalize()
        if self.nccl_comm is not None:
            chainer.cuda.Stream.null.synchronize()
            self.mpi_comm.barrier()
            self.nccl_comm.destroy()
            self.nccl_comm = None

    def _init_comms(self):
        if self.nccl_comm is None:
            self.nccl_comm = _communication_utility.init_nccl_comm(
                self.mpi_comm)

    def _communication_dtype(self):
        if self.allreduce_grad_dtype is not None:
            return numpy.dtype(self.allreduce_grad_dtype)
        if chainer.get_dtype() == numpy.float32:
            return numpy.dtype(numpy.float32)
        return numpy.dtype(numpy.float16)

    def _nccl_allreduce(self, buffer):
        """Sums the flat CuPy array ``buffer`` over the ranks, in place."""
        self._init_comms()
        stream = chainer.cuda.Stream.null
        self.nccl_comm.allReduce(
            buffer.data.ptr, buffer.data.ptr, buffer.size,
            _communication_utility._get_nccl_type_id(buffer.dtype),
            nccl.NCCL_SUM, stream.ptr)

    def multi_node_mean_grad(self, model, zero_fill=False):
        params = _memory_utility.extract_params_set_grad(model, zero_fill)
        if not params:
            return
        xp = params[0].xp
        dtype = self._communication_dtype()
        parts = [(p.grad if p.grad is not None
                  else xp.zeros_like(p.array)).reshape(-1).astype(dtype)
                 for p in params]
        buffer = xp.concatenate(parts)
        self._nccl_allreduce(buffer)
        buffer *= dtype.type(1.0 / self.size)
        _memory_utility.unpack_params(params, 'grad', buffer, zero_fill)
        if chainer.is_debug():
            for param in params:
                self._ensure_all_finite(param.grad)

    def _multi_node_mean(self, sendbuf, recvbuf):
        if backend.get_array_module(recvbuf) is numpy:
            return super()._multi_node_mean(sendbuf, recvbuf)
        source = recvbuf if sendbuf is None else sendbuf
        buffer = source.reshape(-1).astype(recvbuf.dtype, copy=True)
        self._nccl_allreduce(buffer)
        buffer *= 1.0 / self.size
        recvbuf[...] = buffer.reshape(recvbuf.shape)
        if chainer.is_debug():
            self._ensure_all_finite(recvbuf)
