from chainer.functions.activation import sigmoid
from chainer.functions.activation import tanh
from chainer.functions.array import concat
from chainer.functions.array import split_axis
from chainer.functions.connection import linear
from chainer.functions.rnn import n_step_rnn


class NStepGRU(n_step_rnn.BaseNStepRNN):

    """cuDNN node of a uni-directional GRU; see
    :class:`~chainer.functions.rnn.n_step_rnn.BaseNStepRNN`."""

    def __init__(self, n_layers, states, lengths, **kwargs):
        super().__init__(n_layers, states, lengths, rnn_dir='uni',
                         rnn_mode='gru', **kwargs)


class NStepBiGRU(n_step_rnn.BaseNStepRNN):

    """cuDNN node of a bi-directional GRU; see
    :class:`~chainer.functions.rnn.n_step_rnn.BaseNStepRNN`."""

    def __init__(self, n_layers, states, lengths, **kwargs):
        super().__init__(n_layers, states, lengths, rnn_dir='bi',
                         rnn_mode='gru', **kwargs)


class _GRUCell(n_step_rnn._Cell):

    # ws[0:3] (and ws[3:6] on h) are the weights of the reset gate, the
    # update gate and the new memory.

    def __init__(self, w, b):
        self.n_units = w[0].shape[0]
        self.w_x = concat.concat([w[0], w[1], w[2]], axis=0)
        self.b_x = concat.concat([b[0], b[1], b[2]], axis=0)
        self.w_h = concat.concat([w[3], w[4], w[5]], axis=0)
        self.b_h = concat.concat([b[3], b[4], b[5]], axis=0)

    def _split(self, y):
        # The two gates, then the new memory.
        return split_axis.split_axis(y, [2 * self.n_units], axis=1)

    def project(self, x):
        return self._split(linear.linear(x, self.w_x, self.b_x))

    def step(self, projected, h, c):
        x_gates, x_new = projected
        h_gates, h_new = self._split(linear.linear(h, self.w_h, self.b_h))
        r, z = split_axis.split_axis(
            sigmoid.sigmoid(x_gates + h_gates), 2, axis=1)
        h_new = tanh.tanh(x_new + r * h_new)
        # (1 - z) * h_new + z * h
        return h_new + z * (h - h_new), None


def n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                    use_bi_direction, **kwargs):
    """n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs, \
use_bi_direction)

    Base function of stacked GRUs, uni- or bi-directional.

    :func:`~chainer.functions.n_step_gru` and
    :func:`~chainer.functions.n_step_bigru` call it; they document the
    other arguments.

    Args:
        use_bi_direction (bool): Whether the GRU is bi-directional.

    Returns:
        tuple: ``hy`` and the tuple ``ys``.
    """
    n_step_rnn._check_arguments('n_step_gru_base', kwargs, xs, ws)
    hy, _, ys = n_step_rnn._n_step_rnn(
        _GRUCell, n_layers, dropout_ratio, hx, None, ws, bs, xs,
        use_bi_direction)
    return hy, ys


def n_step_gru(
        n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """n_step_gru(n_layers, dropout_ratio, hx, ws, bs, xs)

    Multi-layer GRU, running forward in time, over variable-length
    sequences.

    It runs an ``n_layers``-layer GRU over a whole mini-batch of sequences
    at once. Layer :math:`k` computes, from its input :math:`x_t` (the input
    sequence for the first layer, the outputs of layer :math:`k - 1` for the
    others) and its previous hidden state :math:`h_{t-1}`,

    .. math::
       r_t &= \\sigma(W_0 x_t + W_3 h_{t-1} + b_0 + b_3) \\\\
       z_t &= \\sigma(W_1 x_t + W_4 h_{t-1} + b_1 + b_4) \\\\
       h'_t &= \\tanh(W_2 x_t + b_2 + r_t \\cdot (W_5 h_{t-1} + b_5)) \\\\
       h_t &= (1 - z_t) \\cdot h'_t + z_t \\cdot h_{t-1}

    Between layers, the inputs go through
    :func:`~chainer.functions.dropout` with ratio ``dropout_ratio``.

    Args:
        n_layers (int): How many layers are stacked, :math:`S`.
        dropout_ratio (float): The dropout ratio of the inputs of the layers
            but the first.
        hx (:class:`~chainer.Variable`): The initial hidden states, of
            shape ``(S, B, N)``, where ``B`` is the mini-batch size and ``N``
            the number of hidden units.
        ws (list of list of :class:`~chainer.Variable`): ``ws[k]`` holds the
            six weight matrices :math:`W_0, \\dots, W_5` of layer ``k``.
            ``ws[0][j]`` for ``j < 3`` have shape ``(N, I)``, ``I`` being the
            input size; all the others ``(N, N)``.
        bs (list of list of :class:`~chainer.Variable`): ``bs[k]`` holds the
            six bias vectors :math:`b_0, \\dots, b_5` of layer ``k``, of
            shape ``(N,)``.
        xs (list of :class:`~chainer.Variable`): The input sequence,
            ``xs[t]`` of shape ``(B_t, I)``, laid out as for
            :func:`~chainer.functions.n_step_rnn`.

    Returns:
        tuple: ``hy``, the final hidden states (shaped as ``hx``), and
        ``ys``, a tuple holding for each time step ``t`` the outputs
        :math:`h_t` of the last layer, of shape ``(B_t, N)``.

    .. admonition:: Example

        >>> batches = [3, 2, 1]
        >>> in_size, n_units, n_layers = 3, 2, 2
        >>> xs = [np.ones((b, in_size), np.float32) for b in batches]
        >>> hx = np.zeros((n_layers, batches[0], n_units), np.float32)
        >>> ws = [[np.ones((n_units, in_size if k == 0 and j < 3
        ...                 else n_units), np.float32) for j in range(6)]
        ...       for k in range(n_layers)]
        >>> bs = [[np.zeros(n_units, np.float32) for j in range(6)]
        ...       for k in range(n_layers)]
        >>> hy, ys = F.n_step_gru(n_layers, 0.0, hx, ws, bs, xs)
        >>> hy.shape
        (2, 3, 2)
        >>> [y.shape for y in ys]
        [(3, 2), (2, 2), (1, 2)]

    """
    return n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                           use_bi_direction=False, **kwargs)


def n_step_bigru(
        n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """n_step_bigru(n_layers, dropout_ratio, hx, ws, bs, xs)

    Multi-layer GRU, running both ways in time, over variable-length
    sequences.

    It takes the arguments of :func:`~chainer.functions.n_step_gru`, with
    the states and parameters of both directions of each layer laid out as
    for :func:`~chainer.functions.n_step_birnn`: ``hx`` has shape
    ``(2S, B, N)``, and the weights ``ws[2 * k + d][j]`` with ``j < 3`` of
    the layers ``k > 0`` have shape ``(N, 2N)``, as they multiply the
    outputs of both directions of the layer below.

    Returns:
        tuple: ``hy``, the final hidden states (shaped as ``hx``), and
        ``ys``, a tuple holding for each time step ``t`` the outputs of the
        last layer, of shape ``(B_t, 2N)``.

    """
    return n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                           use_bi_direction=True, **kwargs)
