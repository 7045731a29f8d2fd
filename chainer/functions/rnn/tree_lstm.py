from chainer import backend
from chainer import function
from chainer.functions.rnn import lstm
from chainer.utils import type_check


class TreeLSTM(function.Function):

    """TreeLSTM cell of a node with N children, one forget gate each.

    Inputs are the children's cell states ``c_1, ..., c_N`` and the gate
    pre-activations ``x``, whose second axis is ``3 + N`` times as wide as
    a cell state; outputs are the node's cell state ``c`` and output ``h``.

    """

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() >= 2)
        c_types = in_types[:-1]
        x_type = in_types[-1]
        n_gates = len(c_types) + 3
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
        )
        for c_type in c_types:
            type_check.expect(
                c_type.dtype == x_type.dtype,
                c_type.ndim == x_type.ndim,
            )
            type_check.expect(
                x_type.shape[0] == c_type.shape[0],
                x_type.shape[1] == n_gates * c_type.shape[1],
            )
            for i in range(2, type_check.eval(x_type.ndim)):
                type_check.expect(x_type.shape[i] == c_type.shape[i])

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        c_prevs = inputs[:-1]
        x = inputs[-1]
        a, i, o, *fs = lstm._activate_gates(x, len(c_prevs) + 3, False)
        c = a * i
        for f, c_prev in zip(fs, c_prevs):
            f *= c_prev
            c += f
        h = xp.tanh(c)
        h *= o
        self.retain_outputs((0,))
        return c, h

    def backward(self, inputs, grad_outputs):
        xp = backend.get_array_module(*inputs)
        c_prevs = inputs[:-1]
        x = inputs[-1]
        c = self.output_data[0]
        gc, gh = grad_outputs
        n_gates = len(c_prevs) + 3
        a, i, o, *fs = lstm._activate_gates(x, n_gates, False)
        co = xp.tanh(c)
        gx = xp.empty(x.shape, x.dtype)
        ga, gi, go, *gfs = lstm._gates(gx, n_gates, False)
        # total: the gradient reaching c.
        if gh is None:
            total = xp.zeros_like(c)
            go[...] = 0
        else:
            total = o * gh
            total *= 1 - co * co
            xp.multiply(gh, co * o * (1 - o), out=go)
        if gc is not None:
            total += gc
        xp.multiply(total, i * (1 - a * a), out=ga)
        xp.multiply(total, a * i * (1 - i), out=gi)
        gc_prevs = []
        for f, gf, c_prev in zip(fs, gfs, c_prevs):
            xp.multiply(total, c_prev * f * (1 - f), out=gf)
            gc_prevs.append(total * f)
        return tuple(gc_prevs) + (gx,)


def tree_lstm(*inputs):
    """Applies TreeLSTM cells to gate pre-activations.

    It implements both the N-ary TreeLSTM and the Child-Sum TreeLSTM: a node
    merges the cell states :math:`c_1, \\dots, c_N` of its N children with
    the input array ``x``. The second axis of ``x`` holds :math:`3 + N`
    blocks of ``n_units`` channels, one after another: the pre-activations
    :math:`a` (cell input), :math:`i` (input gate), :math:`o` (output gate)
    and :math:`f_1, \\dots, f_N` (one forget gate per child). It computes

    .. math::

        c &= \\tanh(a) \\sigma(i) + \\sum_{n=1}^{N} c_n \\sigma(f_n), \\\\
        h &= \\tanh(c) \\sigma(o),

    where :math:`\\sigma` is the logistic sigmoid. Each forget gate having
    its own pre-activation follows the variant of Bowman et al., where a
    separate weight matrix may compute each child's forget gate.

    Args:
        inputs: The cell states ``c_1, ..., c_N`` of the children, each of
            shape ``(B, n_units, ...)``, then the input array ``x`` of shape
            ``(B, (N + 3) * n_units, ...)``; each a
            :class:`~chainer.Variable` or :ref:`ndarray`.

    Returns:
        tuple: Two :class:`~chainer.Variable` objects ``c`` (the cell state)
        and ``h`` (the output), both of shape ``(B, n_units, ...)``.

    See `Improved Semantic Representations From Tree-Structured Long
    Short-Term Memory Networks <https://www.aclweb.org/anthology/P15-1150>`_
    and `A Fast Unified Model for Parsing and Sentence Understanding
    <https://arxiv.org/pdf/1603.06021.pdf>`_.

    .. admonition:: Example

        A binary node: two children, so ``x`` has ``5 * n_units`` channels.

        >>> c1 = np.zeros((4, 10), np.float32)
        >>> c2 = np.zeros((4, 10), np.float32)
        >>> x = np.ones((4, 50), np.float32)
        >>> c, h = F.tree_lstm(c1, c2, x)
        >>> c.shape, h.shape
        ((4, 10), (4, 10))

    """
    return TreeLSTM()(*inputs)
