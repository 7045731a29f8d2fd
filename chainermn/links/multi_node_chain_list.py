import queue

import chainer
import chainer.utils

from chainermn import functions


class MultiNodeChainList(chainer.ChainList):
    """A model made of pieces that exchange data with other ranks.

    Each piece is a link added with :meth:`add_link`, saying from which
    ranks it receives its inputs (``rank_in``) and to which ranks it sends
    its outputs (``rank_out``); ``None`` means the model's own inputs or
    outputs. Calling the chain runs the pieces in the order they were added
    and keeps the graph connected across the sends and receives (with
    delegate variables, see :func:`chainermn.functions.pseudo_connect`), so
    one ``backward()`` from the returned variable backpropagates through
    all ranks.

    Example, an MLP split over two ranks::

        class Model0(chainermn.MultiNodeChainList):
            def __init__(self, comm):
                super().__init__(comm)
                self.add_link(MLP(784, 100), rank_in=None, rank_out=1)
                self.add_link(MLP(100, 10), rank_in=1, rank_out=None)

        class Model1(chainermn.MultiNodeChainList):
            def __init__(self, comm):
                super().__init__(comm)
                self.add_link(MLP(100, 100), rank_in=0, rank_out=0)

    Args:
        comm: ChainerMN communicator.
    """

    def __init__(self, comm):
        chainer.utils.experimental('chainermn.MultiNodeChainList')
        super().__init__()
        self._comm = comm
        self._rank_inouts = []

    def add_link(self, link, rank_in=None, rank_out=None):
        """Adds a piece of the model.

        Args:
            link (~chainer.Link): The piece.
            rank_in (int, list of ints, or None): Ranks it receives its
                inputs from (in that order); ``None`` for the model inputs.
            rank_out (int, list of ints, or None): Ranks it sends its
                output to; ``None`` to make it the model output (one piece
                at most).
        """
        super().add_link(link)
        if isinstance(rank_in, int):
            rank_in = [rank_in]
        if isinstance(rank_out, int):
            rank_out = [rank_out]
        if rank_out is None and any(out is None
                                    for _, out in self._rank_inouts):
            raise ValueError(
                'MultiNodeChainList cannot have more than two computational '
                'graph component whose rank_out is None')
        self._rank_inouts.append((rank_in, rank_out))

    def __call__(self, *inputs):
        local_queue = queue.Queue()  # data a piece sends to this rank
        y = None
        delegate_variable = None
        pieces = zip(self._children, self._rank_inouts)
        for i_piece, (f, (rank_in, rank_out)) in enumerate(pieces):
            if rank_in is None:
                if i_piece == 0:
                    x = f(*inputs)
                else:
                    x, = functions.pseudo_connect(delegate_variable, *inputs)
                    x = f(x)
            else:
                xs = []
                for source in rank_in:
                    if source == self._comm.rank:
                        _x = local_queue.get()
                        if delegate_variable is not None:
                            _x, = functions.pseudo_connect(
                                delegate_variable, _x)
                    else:
                        _x = functions.recv(
                            self._comm, rank=source,
                            delegate_variable=delegate_variable)
                    xs.append(_x)
                    delegate_variable = _x
                delegate_variable = None
                x = f(*xs)

            if rank_out is None:
                assert y is None, (
                    'MultiNodeChainList cannot have more than two '
                    'computational graph component whose rank_out is None')
                y = x
                delegate_variable = y
                continue
            for i_dest, dest in enumerate(rank_out):
                if dest == self._comm.rank:
                    if delegate_variable is not None:
                        x, = functions.pseudo_connect(delegate_variable, x)
                    local_queue.put(x)
                    delegate_variable = x
                else:
                    if i_dest > 0 and delegate_variable is not None:
                        x, = functions.pseudo_connect(delegate_variable, x)
                    delegate_variable = functions.send(x, self._comm,
                                                       rank=dest)

        if not local_queue.empty():
            raise ValueError(
                'Communication queue is not empty at the end of forward. '
                'Make sure if all rank_in and rank_out correspond each '
                'other.')
        if y is delegate_variable:
            return y
        if y is not None:
            y, = functions.pseudo_connect(delegate_variable, y)
            return y
        return delegate_variable
