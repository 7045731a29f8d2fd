"""The MPI communicator: every operation but the gradient mean.

Arrays travel as raw MPI buffers: a small pickled header (shapes and dtype)
goes first with mpi4py's lower-case calls, then the data goes through the
upper-case, buffer-based calls without pickling. Non-reducing transfers move
bytes, so any supported dtype (float16 included) goes through unchanged;
reductions run in the array's dtype, float16 in float32. CuPy arrays are
staged through host memory, so an MPI library without CUDA support works;
what a rank receives lands on its current CUDA device when the sender's data
was on a GPU.
"""

import numpy

import chainer
from chainer import backend
import chainer.utils

from chainermn import _mpi
from chainermn import global_except_hook
from chainermn.communicators import _communication_utility
from chainermn.communicators import _memory_utility
from chainermn.communicators import communicator_base

try:
    # Code written for ChainerMN reaches ``mpi4py.MPI`` after importing the
    # communicators; without mpi4py they still import.
    import mpi4py.MPI  # NOQA
except ImportError:
    pass


_SUPPORTED_DTYPES = frozenset(numpy.dtype(t) for t in (
    numpy.int32, numpy.int64, numpy.float16, numpy.float32, numpy.float64))


def _check_dtype(caller, msgtype):
    if msgtype.dtype not in _SUPPORTED_DTYPES:
        raise TypeError(
            '{} does not support dtype {}'.format(caller, msgtype.dtype))


def _check_dtypes_are_same(msgtypes):
    if any(m.dtype != msgtypes[0].dtype for m in msgtypes):
        raise TypeError('all dtypes must be the same')


def _is_array(x):
    return isinstance(x, numpy.ndarray) or \
        backend.get_array_module(x) is not numpy


def _offsets(counts):
    """Displacements of consecutive blocks of the given lengths."""
    return [0] + numpy.cumsum(counts)[:-1].tolist()


class _MessageType:
    """What a receiver needs to allocate for an array or tuple of arrays."""

    def __init__(self, obj):
        if _is_array(obj):
            self.is_host = isinstance(obj, numpy.ndarray)
            self.is_tuple = False
            arrays = (obj,)
        elif isinstance(obj, (list, tuple)):
            arrays = tuple(obj)
            if all(isinstance(x, numpy.ndarray) for x in arrays):
                self.is_host = True
            elif all(_is_array(x) and not isinstance(x, numpy.ndarray)
                     for x in arrays):
                self.is_host = False
            else:
                raise ValueError(
                    'All message objects must be either numpy or cupy '
                    'arrays.')
            if any(x.dtype != arrays[0].dtype for x in arrays):
                raise TypeError('Message objects must be the same dtype')
            self.is_tuple = True
        else:
            raise TypeError(
                'Message object must be numpy/cupy array or its tuple.')
        self.narr = len(arrays)
        self.ndims = [x.ndim for x in arrays]
        self.shapes = [tuple(x.shape) for x in arrays]
        self.dtype = arrays[0].dtype if arrays else numpy.dtype(
            numpy.float32)

    def get_array_module(self):
        if self.is_host:
            return numpy
        from chainer.backends import cuda
        return cuda.cupy


def _size(shape):
    return chainer.utils.size_of_shape(shape)


def _host_bytes(array):
    """A flat uint8 view of a host copy of ``array`` (C order)."""
    host = numpy.ascontiguousarray(_memory_utility.to_host(array))
    return host.reshape(-1).view(numpy.uint8)


def _from_bytes(buf, dtype, shape, msgtype):
    array = buf.view(dtype).reshape(shape)
    if msgtype.is_host:
        return array
    return msgtype.get_array_module().asarray(array)


class MpiCommunicatorBase(communicator_base.CommunicatorBase):
    """Communicator over an mpi4py communicator.

    It implements every operation of
    :class:`~chainermn.CommunicatorBase` except
    :meth:`multi_node_mean_grad`, which each subclass implements with its
    own algorithm. The processes are expected to be started by ``mpiexec``
    (or ``mpirun``).

    Args:
        mpi_comm: An mpi4py communicator, e.g. ``mpi4py.MPI.COMM_WORLD``.
    """

    def __init__(self, mpi_comm):
        super().__init__()
        self.mpi_comm = mpi_comm
        # Before the communicator's own collective operations, which can
        # fail: an uncaught exception on one rank then ends the whole job.
        global_except_hook._add_hook_if_multi_process()
        self._init_ranks()
        with self.config_scope():
            self.batched_copy = False

    @property
    def rank(self):
        return self.mpi_comm.rank

    @property
    def size(self):
        return self.mpi_comm.size

    @property
    def intra_rank(self):
        return self._intra_rank

    @property
    def intra_size(self):
        return self._intra_size

    @property
    def inter_rank(self):
        return self._inter_rank

    @property
    def inter_size(self):
        return self._inter_size

    def set_config(self, name, value=True, **kwargs):
        """Sets a configuration; ``batched_copy`` is the one known here."""
        if name == 'batched_copy':
            with self.config_scope():
                self.batched_copy = value
        else:
            super().set_config(name, **kwargs)

    def get_config(self, name=None):
        if name == 'batched_copy':
            return self.batched_copy
        return super().get_config(name)

    def split(self, color, key):
        return self.__class__(mpi_comm=self.mpi_comm.Split(color, key))

    # Arrays

    def send(self, data, dest, tag):
        """Sends an array or a tuple of arrays to ``dest``.

        Only the arrays travel: a :class:`~chainer.Variable`'s graph does
        not. The receiver calls :meth:`recv` with the same tag.

        Args:
            data: An array, or a tuple or list of arrays of one dtype.
            dest (int): Rank of the receiver.
            tag (int): Tag of the message.
        """
        chainer.utils.experimental(
            'chainermn.communicators.MpiCommunicatorBase.send')
        msgtype = _MessageType(data)
        _check_dtype('send', msgtype)
        arrays = data if msgtype.is_tuple else (data,)
        # Synchronous sends, so that a sender never runs ahead of a
        # receiver that has not posted its receive.
        self.mpi_comm.ssend(msgtype, dest=dest, tag=tag)
        for array in arrays:
            self.mpi_comm.Ssend(_host_bytes(array), dest=dest, tag=tag)

    def recv(self, source, tag):
        """Receives what :meth:`send` sent from ``source``.

        Args:
            source (int): Rank of the sender.
            tag (int): Tag of the message.

        Returns:
            An array, or a tuple of arrays if a tuple was sent.
        """
        chainer.utils.experimental(
            'chainermn.communicators.MpiCommunicatorBase.recv')
        msgtype = self.mpi_comm.recv(source=source, tag=tag)
        received = []
        for shape in msgtype.shapes:
            buf = numpy.empty(_size(shape) * msgtype.dtype.itemsize,
                              numpy.uint8)
            self.mpi_comm.Recv(buf, source=source, tag=tag)
            received.append(_from_bytes(buf, msgtype.dtype, shape, msgtype))
        if msgtype.is_tuple:
            return tuple(received)
        return received[0]

    def bcast(self, x, root=0):
        """Broadcasts an array from ``root``.

        Args:
            x: The array on ``root``; ignored on the other ranks.
            root (int): Rank that holds the array.

        Returns:
            The array (on ``root``, ``x`` itself).
        """
        chainer.utils.experimental(
            'chainermn.communicators.MpiCommunicatorBase.bcast')
        if self.rank == root:
            msgtype = _MessageType(x)
            _check_dtype('bcast', msgtype)
            if msgtype.is_tuple:
                raise TypeError('Tuple data cannot be broadcasted')
            self.mpi_comm.bcast(msgtype, root)
            self.mpi_comm.Bcast(_host_bytes(x), root)
            return x
        msgtype = self.mpi_comm.bcast(None, root)
        shape = msgtype.shapes[0]
        buf = numpy.empty(_size(shape) * msgtype.dtype.itemsize, numpy.uint8)
        self.mpi_comm.Bcast(buf, root)
        return _from_bytes(buf, msgtype.dtype, shape, msgtype)

    def gather(self, x, root=0):
        """Gathers one array from every rank on ``root``.

        Args:
            x: This rank's array (shapes may differ between ranks).
            root (int): Rank that receives.

        Returns:
            On ``root``, a tuple of the arrays in rank order; else ``None``.
        """
        chainer.utils.experimental(
            'chainermn.communicators.MpiCommunicatorBase.gather')
        msgtype = _MessageType(x)
        _check_dtype('gather', msgtype)
        msgtypes = self.mpi_comm.gather(msgtype, root)
        if self.rank != root:
            self.mpi_comm.Gatherv(_host_bytes(x), None, root)
            return None
        _check_dtypes_are_same(msgtypes)
        if any(m.is_tuple for m in msgtypes):
            raise TypeError('gather cannot handle tuple data')
        shapes = [m.shapes[0] for m in msgtypes]
        buf, counts, displs = self._receive_buffer(shapes, msgtype.dtype)
        self.mpi_comm.Gatherv(_host_bytes(x),
                              [buf, (counts, displs), _mpi.get_mpi().BYTE],
                              root)
        return self._split_received(buf, shapes, msgtype)

    def allgather(self, x):
        """Gathers one array from every rank on every rank.

        Args:
            x: This rank's array.

        Returns:
            tuple: The arrays of all ranks in rank order.
        """
        chainer.utils.experimental(
            'chainermn.communicators.MpiCommunicatorBase.allgather')
        msgtype = _MessageType(x)
        _check_dtype('allgather', msgtype)
        msgtypes = self.mpi_comm.allgather(msgtype)
        _check_dtypes_are_same(msgtypes)
        if any(m.is_tuple for m in msgtypes):
            raise TypeError('allgather cannot handle tuple data')
        shapes = [m.shapes[0] for m in msgtypes]
        buf, counts, displs = self._receive_buffer(shapes, msgtype.dtype)
        self.mpi_comm.Allgatherv(
            _host_bytes(x), [buf, (counts, displs), _mpi.get_mpi().BYTE])
        return self._split_received(buf, shapes, msgtype)

    def alltoall(self, xs):
        """Sends ``xs[i]`` to rank ``i``; returns what each rank sent here.

        Args:
            xs (tuple of arrays): One array per rank, all of one dtype.

        Returns:
            tuple: The array received from each rank, in rank order.
        """
        chainer.utils.experimental(
            'chainermn.communicators.MpiCommunicatorBase.alltoall')
        if len(xs) != self.size:
            raise ValueError(
                'The length of data must be same as communicator size.')
        send_types = [_MessageType(x) for x in xs]
        for msgtype in send_types:
            _check_dtype('alltoall', msgtype)
        _check_dtypes_are_same(send_types)
        recv_types = self.mpi_comm.alltoall(send_types)
        _check_dtypes_are_same(recv_types)
        msgtype = recv_types[0]
        parts = [_host_bytes(x) for x in xs]
        send_counts = [p.size for p in parts]
        sendbuf = numpy.concatenate(parts) if parts else numpy.empty(
            0, numpy.uint8)
        shapes = [m.shapes[0] for m in recv_types]
        buf, counts, displs = self._receive_buffer(shapes, msgtype.dtype)
        byte = _mpi.get_mpi().BYTE
        self.mpi_comm.Alltoallv(
            [sendbuf, (send_counts, _offsets(send_counts)), byte],
            [buf, (counts, displs), byte])
        return self._split_received(buf, shapes, msgtype)

    def allreduce(self, x):
        """Returns the element-wise sum of ``x`` over all ranks.

        Args:
            x: An array with the same shape on every rank.

        Returns:
            A new array holding the sum.
        """
        msgtype = _MessageType(x)
        _check_dtype('allreduce', msgtype)
        if msgtype.is_tuple:
            raise TypeError('allreduce cannot handle tuple data')
        host = _memory_utility.to_host(x)
        wide = numpy.dtype(numpy.float32) \
            if host.dtype == numpy.float16 else host.dtype
        sendbuf = numpy.ascontiguousarray(host, dtype=wide)
        recvbuf = numpy.empty_like(sendbuf)
        self.mpi_comm.Allreduce(sendbuf, recvbuf)
        result = recvbuf.astype(host.dtype, copy=False)
        if msgtype.is_host:
            return result
        return msgtype.get_array_module().asarray(result)

    def scatter(self, xs, root=0):
        """Sends ``xs[i]`` from ``root`` to rank ``i``.

        Args:
            xs: On ``root``, a tuple of one array per rank, or an array whose
                first axis has one entry per rank; ignored elsewhere.
            root (int): Rank that sends.

        Returns:
            This rank's array.
        """
        chainer.utils.experimental(
            'chainermn.communicators.CommunicatorBase.scatter')
        byte = _mpi.get_mpi().BYTE
        if self.rank != root:
            msgtype = self.mpi_comm.scatter(None, root)
            shape = msgtype.shapes[0]
            buf = numpy.empty(_size(shape) * msgtype.dtype.itemsize,
                              numpy.uint8)
            self.mpi_comm.Scatterv(None, [buf, byte], root)
            return _from_bytes(buf, msgtype.dtype, shape, msgtype)

        msgtype = _MessageType(xs)
        _check_dtype('scatter', msgtype)
        if msgtype.is_tuple:
            if msgtype.narr != self.size:
                raise ValueError('the length of xs must be consistent '
                                 'with communicator size')
            parts = list(xs)
        else:
            if xs.ndim == 0 or xs.shape[0] != self.size:
                raise ValueError('scatter received inconsistent number of '
                                 'inputs with communicator size')
            parts = [xs[i] for i in range(self.size)]
        types = [_MessageType(p) for p in parts]
        mine = self.mpi_comm.scatter(types, root)
        host_parts = [_host_bytes(p) for p in parts]
        counts = [p.size for p in host_parts]
        sendbuf = numpy.concatenate(host_parts)
        buf = numpy.empty(counts[root], numpy.uint8)
        self.mpi_comm.Scatterv([sendbuf, (counts, _offsets(counts)), byte],
                               [buf, byte], root)
        return _from_bytes(buf, mine.dtype, mine.shapes[0], mine)

    # Objects

    def send_obj(self, obj, dest, tag=0):
        """Sends a picklable object to ``dest``."""
        self.mpi_comm.send(obj, dest=dest, tag=tag)

    def recv_obj(self, source, status=None, tag=None):
        """Receives an object sent by :meth:`send_obj`.

        Args:
            source (int): Rank of the sender.
            status: An optional ``mpi4py.MPI.Status`` to fill in.
            tag (int): Tag to match; ``None`` matches any tag.
        """
        if tag is None:
            tag = _mpi.get_mpi().ANY_TAG
        return self.mpi_comm.recv(source=source, status=status, tag=tag)

    def bcast_obj(self, obj, max_buf_len=256 * 1024 * 1024, root=0):
        """Broadcasts a picklable object from ``root``, in chunks.

        Args:
            obj: The object on ``root`` (``None`` elsewhere).
            max_buf_len (int): Largest chunk in bytes; objects larger than
                one MPI message can hold are sent in several.
            root (int): Rank that holds the object.
        """
        return _communication_utility.chunked_bcast_obj(
            obj, self.mpi_comm, max_buf_len=max_buf_len, root=root)

    def gather_obj(self, obj, root=0):
        """Gathers one object per rank on ``root`` (a list in rank order)."""
        return self.mpi_comm.gather(obj, root=root)

    def allreduce_obj(self, obj):
        """Returns the sum of ``obj`` over all ranks, on every rank."""
        return self.mpi_comm.allreduce(obj)

    # Models

    def bcast_data(self, model):
        """Overwrites the parameters of ``model`` with those of rank 0.

        Parameters travel one by one in name order, float16 ones as float32
        as Chainer does; uninitialized parameters are skipped.
        """
        for _, param in sorted(model.namedparams()):
            if param.array is None:
                continue
            host = _memory_utility.to_host(param.array)
            wide = numpy.ascontiguousarray(
                host, dtype=numpy.float32
                if host.dtype == numpy.float16 else host.dtype)
            self.mpi_comm.Bcast(wide)
            if wide is not param.array:
                param.array[...] = backend.get_array_module(
                    param.array).asarray(wide).astype(param.dtype,
                                                      copy=False)

    # Internals

    def _init_ranks(self):
        ranks = _communication_utility.init_ranks(self.mpi_comm)
        assert ranks[0] == self.mpi_comm.rank
        (self._intra_rank, self._intra_size,
         self._inter_rank, self._inter_size) = ranks[1:]

    def _receive_buffer(self, shapes, dtype):
        counts = [_size(s) * dtype.itemsize for s in shapes]
        return numpy.empty(sum(counts), numpy.uint8), counts, \
            _offsets(counts)

    def _split_received(self, buf, shapes, msgtype):
        arrays = []
        begin = 0
        for shape in shapes:
            end = begin + _size(shape) * msgtype.dtype.itemsize
            arrays.append(_from_bytes(buf[begin:end], msgtype.dtype, shape,
                                      msgtype))
            begin = end
        return tuple(arrays)

    def _check_ready_to_allreduce(self, array_a, array_b):
        mine = ((None if array_a is None else array_a.shape,
                 None if array_a is None else array_a.dtype),
                array_b.shape, array_b.dtype)
        everyone = self.gather_obj((self.rank, mine))
        if self.rank == 0:
            for rank, theirs in everyone:
                if theirs != mine:
                    raise ValueError(
                        'Shape does not match: {} at rank 0 while {} at '
                        'rank {}'.format(mine, theirs, rank))

    def _ensure_all_finite(self, array):
        xp = backend.get_array_module(array)
        if not xp.isfinite(array).all():
            raise ValueError('Parameters diverged after allreduce.')

    def _multi_node_mean(self, sendbuf, recvbuf):
        """Stores in ``recvbuf`` the element-wise mean over the ranks.

        Args:
            sendbuf: This rank's values, or ``None`` to take them from
                ``recvbuf`` (in place).
            recvbuf: The array that receives the mean; float16 arrays are
                reduced in float32.
        """
        if chainer.is_debug():
            self._check_ready_to_allreduce(sendbuf, recvbuf)
        MPI = _mpi.get_mpi()
        work, write_back = _memory_utility.reduction_buffer(recvbuf)
        if sendbuf is None:
            self.mpi_comm.Allreduce(MPI.IN_PLACE, work)
        else:
            source = numpy.ascontiguousarray(
                _memory_utility.to_host(sendbuf), dtype=work.dtype)
            self.mpi_comm.Allreduce(source, work)
        work *= 1.0 / self.size
        if write_back:
            recvbuf[...] = backend.get_array_module(recvbuf).asarray(
                work).astype(recvbuf.dtype, copy=False)
        if chainer.is_debug():
            self._ensure_all_finite(recvbuf)
