"""Differentiable send and receive between two ranks."""

import chainer
from chainer import backend
import chainer.utils


def _empty(xp):
    return xp.array([], dtype=xp.float32)


class Send(chainer.Function):
    """Sends its inputs to ``peer_rank``; backward receives their grads."""

    def __init__(self, comm, peer_rank, peer_tag):
        chainer.utils.experimental('chainermn.functions.Send')
        self.comm = comm
        self.peer_rank = peer_rank
        self.peer_tag = peer_tag

    @property
    def label(self):
        return '{} (peer_rank: {})'.format(self.__class__.__name__,
                                           self.peer_rank)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        xs = inputs[:-1]  # the last input is the dummy variable
        self.comm.send(xs[0] if len(xs) == 1 else xs, self.peer_rank,
                       self.peer_tag)
        return _empty(xp),

    def backward(self, inputs, grad_outputs):
        xp = backend.get_array_module(*inputs)
        grad = self.comm.recv(self.peer_rank, self.peer_tag)
        if isinstance(grad, tuple):
            return tuple(xp.array(g) for g in grad) + (_empty(xp),)
        return xp.array(grad), _empty(xp)


class Recv(chainer.Function):
    """Receives arrays from ``peer_rank``; backward sends their grads."""

    def __init__(self, comm, peer_rank, peer_tag):
        chainer.utils.experimental('chainermn.functions.Recv')
        self.comm = comm
        self.peer_rank = peer_rank
        self.peer_tag = peer_tag

    def __call__(self, *inputs):
        if not inputs:
            xp = backend.get_array_module(*inputs)
            dummy_var = chainer.Variable(_empty(xp))
            dummy_var.name = 'dummy_var'
            inputs = (dummy_var,)
        return super().__call__(*inputs)

    @property
    def label(self):
        return '{} (peer_rank: {})'.format(self.__class__.__name__,
                                           self.peer_rank)

    def forward(self, inputs):
        data = self.comm.recv(self.peer_rank, self.peer_tag)
        if not isinstance(data, tuple):
            data = (data,)
        return data

    def backward(self, inputs, grad_outputs):
        xp = backend.get_array_module(*inputs)
        self.comm.send(grad_outputs, self.peer_rank, self.peer_tag)
        return tuple(xp.zeros_like(x) for x in inputs)


def send(x, communicator, rank, tag=0):
    """Sends a variable (or a tuple of them) to another rank.

    Backward receives the gradient from that rank (where the received
    variable was used) and passes it on to ``x``.

    Args:
        x (~chainer.Variable or tuple of them): What to send.
        communicator: ChainerMN communicator.
        rank (int): Rank of the receiver.
        tag (int): Tag of the message.

    Returns:
        ~chainer.Variable: An empty *delegate variable* that stands for the
        send in the graph: call its ``backward()``, or pass it on to
        :func:`recv` or :func:`pseudo_connect`, to run the backward.
    """
    chainer.utils.experimental('chainermn.functions.send')
    if rank == communicator.rank:
        raise ValueError('rank must be different from communicator rank, '
                         'otherwise deadlock occurs')
    xp = backend.get_array_module(*x)
    dummy_var = chainer.Variable(_empty(xp))
    if isinstance(x, (list, tuple)):
        inputs = tuple(x) + (dummy_var,)
    else:
        inputs = (x, dummy_var)
    delegate_variable = Send(communicator, peer_rank=rank,
                             peer_tag=tag)(*inputs)
    delegate_variable.name = 'delegate_variable'
    return delegate_variable


def recv(communicator, rank, delegate_variable=None, tag=0,
         force_tuple=False):
    """Receives a variable (or a tuple of them) from another rank.

    Backward sends the gradient back to the sender. The result lands on the
    current CUDA device when the sender's data was on a GPU.

    Args:
        communicator: ChainerMN communicator.
        rank (int): Rank of the sender.
        delegate_variable (~chainer.Variable): The delegate variable of an
            earlier, otherwise unconnected piece of this rank's graph (see
            :func:`pseudo_connect`), so that backward reaches it.
        tag (int): Tag of the message.
        force_tuple (bool): Return a tuple even for one variable.

    Returns:
        ~chainer.Variable or tuple of them: What was received.
    """
    chainer.utils.experimental('chainermn.functions.recv')
    if rank == communicator.rank:
        raise ValueError('rank must be different from communicator rank, '
                         'otherwise deadlock occurs')
    function = Recv(communicator, peer_rank=rank, peer_tag=tag)
    if delegate_variable is None:
        res = function()
    else:
        delegate_variable.name = 'delegate_variable'
        res = function(delegate_variable)
    if force_tuple and not isinstance(res, tuple):
        return (res,)
    return res
