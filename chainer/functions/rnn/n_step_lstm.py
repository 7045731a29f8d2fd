from chainer.functions.array import reshape
from chainer.functions.array import stack
from chainer.functions.connection import linear
from chainer.functions.rnn import lstm
from chainer.functions.rnn import n_step_rnn


def _interleave(arrays):
    # Rows of the given matrices (or vectors) interleaved: row ``4n + g`` is
    # row ``n`` of ``arrays[g]``, the layout of the gates in F.lstm.
    w = stack.stack(arrays, axis=1)
    return reshape.reshape(w, (w.shape[0] * w.shape[1],) + w.shape[2:])


class NStepLSTM(n_step_rnn.BaseNStepRNN):

    """cuDNN node of a uni-directional LSTM; see
    :class:`~chainer.functions.rnn.n_step_rnn.BaseNStepRNN`."""

    def __init__(self, n_layers, states, lengths):
        super().__init__(n_layers, states, lengths, rnn_dir='uni',
                         rnn_mode='lstm')


class NStepBiLSTM(n_step_rnn.BaseNStepRNN):

    """cuDNN node of a bi-directional LSTM; see
    :class:`~chainer.functions.rnn.n_step_rnn.BaseNStepRNN`."""

    def __init__(self, n_layers, states, lengths):
        super().__init__(n_layers, states, lengths, rnn_dir='bi',
                         rnn_mode='lstm')


class _LSTMCell(n_step_rnn._Cell):

    # ws[0:4] (and ws[4:8] on h) are the weights of the input gate, the
    # forget gate, the cell input and the output gate; F.lstm takes them
    # as (cell input, input gate, forget gate, output gate). The biases are
    # not summed beforehand: the gradients of distinct parameters must not
    # be one array, which in-place optimizer hooks would update twice.

    def __init__(self, w, b):
        self.w_x = _interleave([w[2], w[0], w[1], w[3]])
        self.b_x = _interleave([b[2], b[0], b[1], b[3]])
        self.w_h = _interleave([w[6], w[4], w[5], w[7]])
        self.b_h = _interleave([b[6], b[4], b[5], b[7]])

    def project(self, x):
        return linear.linear(x, self.w_x, self.b_x),

    def step(self, projected, h, c):
        c, h = lstm.lstm(
            c, projected[0] + linear.linear(h, self.w_h, self.b_h))
        return h, c


def n_step_lstm_base(
        n_layers, dropout_ratio, hx, cx, ws, bs, xs, use_bi_direction,
        **kwargs):
    """n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs, \
use_bi_direction)

    Base function of stacked LSTMs, uni- or bi-directional.

    :func:`~chainer.functions.n_step_lstm` and
    :func:`~chainer.functions.n_step_bilstm` call it; they document the
    other arguments.

    Args:
        use_bi_direction (bool): Whether the LSTM is bi-directional.

    Returns:
        tuple: ``hy``, ``cy`` and the tuple ``ys``.
    """
    n_step_rnn._check_arguments('n_step_lstm_base', kwargs, xs, ws)
    return n_step_rnn._n_step_rnn(
        _LSTMCell, n_layers, dropout_ratio, hx, cx, ws, bs, xs,
        use_bi_direction)


def n_step_lstm(
        n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """n_step_lstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs)

    Multi-layer LSTM, running forward in time, over variable-length
    sequences.

    It runs an ``n_layers``-layer LSTM over a whole mini-batch of sequences
    at once. Layer :math:`k` computes, from its input :math:`x_t` (the input
    sequence for the first layer, the outputs of layer :math:`k - 1` for the
    others) and its previous state :math:`h_{t-1}, c_{t-1}`,

    .. math::
       i_t &= \\sigma(W_0 x_t + W_4 h_{t-1} + b_0 + b_4) \\\\
       f_t &= \\sigma(W_1 x_t + W_5 h_{t-1} + b_1 + b_5) \\\\
       a_t &= \\tanh(W_2 x_t + W_6 h_{t-1} + b_2 + b_6) \\\\
       o_t &= \\sigma(W_3 x_t + W_7 h_{t-1} + b_3 + b_7) \\\\
       c_t &= f_t \\cdot c_{t-1} + i_t \\cdot a_t \\\\
       h_t &= o_t \\cdot \\tanh(c_t)

    Between layers, the inputs go through
    :func:`~chainer.functions.dropout` with ratio ``dropout_ratio``.

    Args:
        n_layers (int): How many layers are stacked, :math:`S`.
        dropout_ratio (float): The dropout ratio of the inputs of the layers
            but the first.
        hx (:class:`~chainer.Variable`): The initial hidden states, of
            shape ``(S, B, N)``, where ``B`` is the mini-batch size and ``N``
            the number of hidden units.
        cx (:class:`~chainer.Variable`): The initial cell states, shaped as
            ``hx``.
        ws (list of list of :class:`~chainer.Variable`): ``ws[k]`` holds the
            eight weight matrices :math:`W_0, \\dots, W_7` of layer ``k``.
            ``ws[0][j]`` for ``j < 4`` have shape ``(N, I)``, ``I`` being the
            input size; all the others ``(N, N)``.
        bs (list of list of :class:`~chainer.Variable`): ``bs[k]`` holds the
            eight bias vectors :math:`b_0, \\dots, b_7` of layer ``k``, of
            shape ``(N,)``.
        xs (list of :class:`~chainer.Variable`): The input sequence,
            ``xs[t]`` of shape ``(B_t, I)``, laid out as for
            :func:`~chainer.functions.n_step_rnn`.

    Returns:
        tuple: ``hy`` and ``cy``, the final hidden and cell states (shaped
        as ``hx``), and ``ys``, a tuple holding for each time step ``t`` the
        outputs :math:`h_t` of the last layer, of shape ``(B_t, N)``.

    .. seealso:: :func:`chainer.functions.lstm`, which computes one step
       of one layer, with any number of units.

    .. admonition:: Example

        >>> batches = [3, 2, 1]
        >>> in_size, n_units, n_layers = 3, 2, 2
        >>> xs = [np.ones((b, in_size), np.float32) for b in batches]
        >>> hx = np.zeros((n_layers, batches[0], n_units), np.float32)
        >>> cx = np.zeros((n_layers, batches[0], n_units), np.float32)
        >>> ws = [[np.ones((n_units, in_size if k == 0 and j < 4
        ...                 else n_units), np.float32) for j in range(8)]
        ...       for k in range(n_layers)]
        >>> bs = [[np.zeros(n_units, np.float32) for j in range(8)]
        ...       for k in range(n_layers)]
        >>> hy, cy, ys = F.n_step_lstm(n_layers, 0.0, hx, cx, ws, bs, xs)
        >>> hy.shape, cy.shape
        ((2, 3, 2), (2, 3, 2))
        >>> [y.shape for y in ys]
        [(3, 2), (2, 2), (1, 2)]

    """
    return n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                            use_bi_direction=False, **kwargs)


def n_step_bilstm(
        n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """n_step_bilstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs)

    Multi-layer LSTM, running both ways in time, over variable-length
    sequences.

    It takes the arguments of :func:`~chainer.functions.n_step_lstm`, with
    the states and parameters of both directions of each layer laid out as
    for :func:`~chainer.functions.n_step_birnn`: ``hx`` and ``cx`` have shape
    ``(2S, B, N)``, and the weights ``ws[2 * k + d][j]`` with ``j < 4`` of
    the layers ``k > 0`` have shape ``(N, 2N)``, as they multiply the
    outputs of both directions of the layer below.

    Returns:
        tuple: ``hy`` and ``cy``, the final hidden and cell states (shaped
        as ``hx``), and ``ys``, a tuple holding for each time step ``t`` the
        outputs of the last layer, of shape ``(B_t, 2N)``.

    .. admonition:: Example

        >>> batches = [3, 2, 1]
        >>> in_size, n_units, n_layers = 3, 2, 2
        >>> xs = [np.ones((b, in_size), np.float32) for b in batches]
        >>> hx = np.zeros((2 * n_layers, batches[0], n_units), np.float32)
        >>> cx = np.zeros((2 * n_layers, batches[0], n_units), np.float32)
        >>> def w_in(k, j):
        ...     if j >= 4:
        ...         return n_units
        ...     return in_size if k == 0 else 2 * n_units
        >>> ws = [[np.ones((n_units, w_in(k, j)), np.float32)
        ...        for j in range(8)]
        ...       for k in range(n_layers) for direction in range(2)]
        >>> bs = [[np.zeros(n_units, np.float32) for j in range(8)]
        ...       for k in range(n_layers) for direction in range(2)]
        >>> hy, cy, ys = F.n_step_bilstm(n_layers, 0.0, hx, cx, ws, bs, xs)
        >>> hy.shape, cy.shape
        ((4, 3, 2), (4, 3, 2))
        >>> [y.shape for y in ys]
        [(3, 4), (2, 4), (1, 4)]

    """
    return n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                            use_bi_direction=True, **kwargs)
