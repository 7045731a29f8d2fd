"""Differentiable collective communications over all ranks.

float16 arrays travel as float32, as Chainer does, and come back as
float16.
"""

import numpy

import chainer
from chainer import backend
import chainer.utils


def _widen(arrays):
    """Casts float16 arrays to float32 for the transfer."""
    return tuple(a.astype(numpy.float32) if a.dtype == numpy.float16 else a
                 for a in arrays)


def _narrow(arrays, dtype):
    """Casts received arrays back to float16 when ``dtype`` is float16."""
    if dtype == numpy.float16:
        return tuple(a.astype(dtype) for a in arrays)
    return tuple(arrays)


def _dummy_input(xp):
    dummy_var = chainer.Variable(xp.array([], dtype=chainer.config.dtype))
    dummy_var.name = 'dummy_var'
    return dummy_var


class AllGather(chainer.Function):
    """All-gather; backward sums each rank's gradient back to its owner."""

    def __init__(self, comm):
        chainer.utils.experimental('chainermn.functions.AllGather')
        self.comm = comm

    def forward(self, inputs):
        x, = inputs
        return _narrow(self.comm.allgather(_widen((x,))[0]), x.dtype)

    def backward(self, inputs, grad_outputs):
        xp = backend.get_array_module(*inputs)
        dtype = grad_outputs[0].dtype
        gxs = self.comm.alltoall(_widen(grad_outputs))
        return _narrow((xp.stack(gxs).sum(axis=0),), dtype)


class AllToAll(chainer.Function):
    """All-to-all; backward is the all-to-all of the gradients."""

    def __init__(self, comm):
        chainer.utils.experimental('chainermn.functions.AllToAll')
        self.comm = comm

    def forward(self, inputs):
        if len(inputs) != self.comm.size:
            raise ValueError(
                'The length of inputs must be same as communicator size.')
        return _narrow(self.comm.alltoall(_widen(inputs)), inputs[0].dtype)

    def backward(self, inputs, grad_outputs):
        assert self.comm.size == len(grad_outputs)
        return _narrow(self.comm.alltoall(_widen(grad_outputs)),
                       inputs[0].dtype)


class Bcast(chainer.Function):
    """Broadcast from ``root``; backward sums the gradients on ``root``."""

    def __init__(self, comm, root):
        chainer.utils.experimental('chainermn.functions.Bcast')
        self.comm = comm
        self.root = root

    def __call__(self, *inputs):
        if not inputs:
            inputs = (_dummy_input(backend.get_array_module(*inputs)),)
        return super().__call__(*inputs)

    def forward(self, inputs):
        dtype = inputs[0].dtype
        x = _widen(inputs)[0] if self.comm.rank == self.root else None
        return _narrow((self.comm.bcast(x, self.root),), dtype)

    def backward(self, inputs, grad_outputs):
        gy, = grad_outputs
        gys = self.comm.gather(_widen((gy,))[0], self.root)
        if self.comm.rank != self.root:
            return None,
        xp = backend.get_array_module(*gys)
        return _narrow((xp.stack(gys).sum(axis=0),), gy.dtype)


class Gather(chainer.Function):
    """Gather on ``root``; backward scatters the gradients back."""

    def __init__(self, comm, root):
        chainer.utils.experimental('chainermn.functions.Gather')
        self.comm = comm
        self.root = root

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        x, = inputs
        ys = self.comm.gather(_widen((x,))[0], self.root)
        if self.comm.rank == self.root:
            return _narrow(ys, x.dtype)
        return xp.array([], dtype=x.dtype),

    def backward(self, inputs, grad_outputs):
        dtype = inputs[0].dtype
        if self.comm.rank == self.root:
            grad_outputs = _widen(grad_outputs)
        return _narrow((self.comm.scatter(grad_outputs, self.root),), dtype)


class Scatter(chainer.Function):
    """Scatter from ``root``; backward gathers the gradients on ``root``."""

    def __init__(self, comm, root):
        chainer.utils.experimental('chainermn.functions.Scatter')
        self.comm = comm
        self.root = root

    def __call__(self, *inputs):
        if not inputs:
            inputs = (_dummy_input(backend.get_array_module(*inputs)),)
        return super().__call__(*inputs)

    def forward(self, inputs):
        dtype = inputs[0].dtype
        if self.comm.rank == self.root:
            y = self.comm.scatter(_widen(inputs), self.root)
        else:
            y = self.comm.scatter(None, self.root)
        return _narrow((y,), dtype)

    def backward(self, inputs, grad_outputs):
        xp = backend.get_array_module(*inputs)
        gy, = grad_outputs
        gxs = self.comm.gather(_widen((gy,))[0], self.root)
        if self.comm.rank == self.root:
            return _narrow(gxs, gy.dtype)
        return tuple(xp.zeros_like(x) for x in inputs)


def allgather(comm, x):
    """Differentiable all-gather: every rank gets every rank's ``x``.

    Backward sends each gradient back to the rank the value came from,
    where they are summed.

    Args:
        comm: ChainerMN communicator.
        x (~chainer.Variable): This rank's variable (same shape everywhere
            is not required).

    Returns:
        tuple of ~chainer.Variable: The variables of all ranks.
    """
    chainer.utils.experimental('chainermn.functions.all_gather')
    return AllGather(comm)(x)


def alltoall(comm, xs):
    """Differentiable all-to-all: ``xs[i]`` goes to rank ``i``.

    Args:
        comm: ChainerMN communicator.
        xs (list of ~chainer.Variable): One variable per rank.

    Returns:
        tuple of ~chainer.Variable: The variable received from each rank.
    """
    chainer.utils.experimental('chainermn.functions.all_to_all')
    if len(xs) != comm.size:
        raise ValueError('The length of xs must be same as communicator size.')
    return AllToAll(comm)(*xs)


def bcast(comm, x, root=0):
    """Differentiable broadcast of ``root``'s ``x``.

    Backward gathers the gradients on ``root`` and sums them there.

    Args:
        comm: ChainerMN communicator.
        x (~chainer.Variable): The variable on ``root``; ignored elsewhere.
        root (int): Rank that sends.

    Returns:
        ~chainer.Variable: The broadcast variable.
    """
    chainer.utils.experimental('chainermn.functions.bcast')
    if comm.rank == root:
        return Bcast(comm, root)(x)
    return Bcast(comm, root)()


def gather(comm, x, root=0):
    """Differentiable gather of every rank's ``x`` on ``root``.

    Args:
        comm: ChainerMN communicator.
        x (~chainer.Variable): This rank's variable.
        root (int): Rank that receives.

    Returns:
        On ``root``, a tuple of the variables of all ranks; elsewhere an
        empty variable standing for the send (call its ``backward()``).
    """
    chainer.utils.experimental('chainermn.functions.gather')
    return Gather(comm, root)(x)


def scatter(comm, xs, root=0):
    """Differentiable scatter: ``root`` sends ``xs[i]`` to rank ``i``.

    Args:
        comm: ChainerMN communicator.
        xs (list of ~chainer.Variable): On ``root``, one variable per rank;
            ignored elsewhere.
        root (int): Rank that sends.

    Returns:
        ~chainer.Variable: This rank's variable.
    """
    chainer.utils.experimental('chainermn.functions.scatter')
    if comm.rank == root:
        return Scatter(comm, root)(*xs)
    return Scatter(comm, root)()
