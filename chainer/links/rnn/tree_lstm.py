from chainer.functions.activation import sigmoid
from chainer.functions.activation import tanh
from chainer.functions.array import concat
from chainer.functions.array import split_axis
from chainer.functions.rnn import tree_lstm
from chainer import link
from chainer.links.connection import linear


class _TreeLSTMBase(link.Chain):

    # Helpers shared by the two TreeLSTM links, which take
    # ``(c_1, ..., c_N, h_1, ..., h_N, x)`` where any of them may be None.

    def _input_or_zeros(self, cs, hs, x):
        # ``x``, or zeros shaped like a batch of inputs when it is None.
        if x is not None:
            return x
        base = next((v for v in cs + hs if v is not None), None)
        if base is None:
            raise ValueError('All inputs (cs, hs, x) are None.')
        return self.xp.zeros((base.shape[0], self.in_size), dtype=base.dtype)

    def _pad_zero_nodes(self, vs, batch, dtype):
        # Replaces missing children's states with zeros.
        if all(v is not None for v in vs):
            return vs
        zero = self.xp.zeros((batch, self.state_size), dtype=dtype)
        return tuple(zero if v is None else v for v in vs)


class ChildSumTreeLSTM(_TreeLSTMBase):

    """Child-Sum TreeLSTM unit.

    .. warning::

        This feature is experimental: its interface may still change.

    It merges the states of any number of children into the state of their
    parent node and keeps no state itself. Called as
    ``tree_lstm(c_1, ..., c_N, h_1, ..., h_N, x)``, it returns the parent's
    ``(c, h)``; the result does not depend on the order of the children.
    A missing child state (``None``) counts as zeros, and so does a missing
    input ``x``.

    The input, input gate and output gate see the sum of the children's
    outputs through ``W_h_aio``; each child's forget gate sees that child's
    output through ``W_h_f``; all gates see ``x`` through ``W_x``.

    Args:
        in_size (int): Width of each input row.
        out_size (int): Width of the cell state and of the output.

    Attributes:
        W_x (~chainer.links.Linear): Connections from the input.
        W_h_aio (~chainer.links.Linear): Connections from the sum of the
            children's outputs to the cell input, input gate and output gate.
        W_h_f (~chainer.links.Linear): Connections from each child's output
            to its forget gate.

    See: `Improved Semantic Representations From Tree-Structured Long
    Short-Term Memory Networks <https://www.aclweb.org/anthology/P15-1150>`_.
    """

    def __init__(self, in_size, out_size):
        super().__init__()
        with self.init_scope():
            self.W_x = linear.Linear(in_size, 4 * out_size)
            self.W_h_aio = linear.Linear(out_size, 3 * out_size, nobias=True)
            self.W_h_f = linear.Linear(out_size, out_size, nobias=True)
        self.in_size = in_size
        self.state_size = out_size

    def forward(self, *cshsx):
        """Returns the parent's ``(c, h)``.

        Args:
            cshsx: The children's cell states, then their outputs, then the
                input: ``c_1, ..., c_N, h_1, ..., h_N, x``.

        Returns:
            tuple of ~chainer.Variable: The new cell state and output.
        """
        assert len(cshsx) % 2 == 1
        n_children = len(cshsx) // 2
        cs = cshsx[:n_children]
        hs = cshsx[n_children:-1]
        x = self._input_or_zeros(cs, hs, cshsx[-1])

        n = self.state_size
        W_x_aio_in, W_x_f_in = split_axis.split_axis(
            self.W_x(x), [3 * n], axis=1)

        if n_children == 0:
            a, i, o = split_axis.split_axis(W_x_aio_in, 3, axis=1)
            c = sigmoid.sigmoid(i) * tanh.tanh(a)
            h = sigmoid.sigmoid(o) * tanh.tanh(c)
            return c, h

        batch = x.shape[0]
        hs = self._pad_zero_nodes(hs, batch, x.dtype)
        cs = self._pad_zero_nodes(cs, batch, x.dtype)

        aio_in = self.W_h_aio(sum(hs)) + W_x_aio_in
        # Each child's forget gate, side by side along the second axis.
        W_h_fs_in = concat.concat(split_axis.split_axis(
            self.W_h_f(concat.concat(hs, axis=0)), n_children, axis=0),
            axis=1)
        f_in = W_h_fs_in + concat.concat([W_x_f_in] * n_children, axis=1)
        tree_lstm_in = concat.concat([aio_in, f_in], axis=1)
        return tree_lstm.tree_lstm(*cs, tree_lstm_in)


class NaryTreeLSTM(_TreeLSTMBase):

    """N-ary TreeLSTM unit.

    .. warning::

        This feature is experimental: its interface may still change.

    It merges the states of exactly ``n_ary`` ordered children into the
    state of their parent node and keeps no state itself. Called as
    ``tree_lstm(c_1, ..., c_N, h_1, ..., h_N, x)``, it returns the parent's
    ``(c, h)``; the result depends on the order of the children. A missing
    child state (``None``) counts as zeros, and so does a missing input
    ``x``.

    Every gate (cell input, input gate, output gate and one forget gate per
    child) sees the input through ``W_x`` and each child's output through
    its own ``W_h{k}``, the variant of Bowman et al. where each child's
    forget gate has its own weights.

    Args:
        in_size (int): Width of each input row.
        out_size (int): Width of the cell state and of the output.
        n_ary (int): Number of children of each node.

    Attributes:
        W_x (~chainer.links.Linear): Connections from the input.
        W_h1, ..., W_hN (~chainer.links.Linear): Connections from the output
            of each child.

    See: `Improved Semantic Representations From Tree-Structured Long
    Short-Term Memory Networks <https://www.aclweb.org/anthology/P15-1150>`_
    and `A Fast Unified Model for Parsing and Sentence Understanding
    <https://arxiv.org/abs/1603.06021>`_.
    """

    def __init__(self, in_size, out_size, n_ary=2):
        assert n_ary >= 1
        super().__init__()
        width = (3 + n_ary) * out_size
        with self.init_scope():
            self.W_x = linear.Linear(in_size, width)
            for k in range(1, n_ary + 1):
                setattr(self, 'W_h{}'.format(k),
                        linear.Linear(out_size, width, nobias=True))
        self.in_size = in_size
        self.state_size = out_size
        self.n_ary = n_ary

    def forward(self, *cshsx):
        """Returns the parent's ``(c, h)``.

        Args:
            cshsx: The children's cell states, then their outputs, then the
                input: ``2 * n_ary + 1`` arguments.

        Returns:
            tuple of ~chainer.Variable: The new cell state and output.
        """
        assert len(cshsx) == self.n_ary * 2 + 1
        cs = cshsx[:self.n_ary]
        hs = cshsx[self.n_ary:-1]
        x = self._input_or_zeros(cs, hs, cshsx[-1])

        tree_lstm_in = self.W_x(x)
        for k, h in enumerate(hs, start=1):
            if h is not None:
                tree_lstm_in = tree_lstm_in + getattr(self, 'W_h%d' % k)(h)
        cs = self._pad_zero_nodes(cs, x.shape[0], x.dtype)
        return tree_lstm.tree_lstm(*cs, tree_lstm_in)
