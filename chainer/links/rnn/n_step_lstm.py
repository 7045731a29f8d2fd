from chainer.functions.rnn import n_step_lstm as rnn
from chainer.links.rnn import n_step_rnn


class NStepLSTMBase(n_step_rnn.NStepRNNBase):

    """__init__(self, n_layers, in_size, out_size, dropout, \
*, initialW=None, initial_bias=None)

    Base class of the stacked LSTM links over whole sequences.

    Each layer and direction has eight weights ``w0, ..., w7`` and biases
    ``b0, ..., b7``: ``w0..w3`` act on the layer input and ``w4..w7`` on
    the hidden state (see :func:`~chainer.functions.n_step_lstm`).

    The arguments are those of
    :class:`~chainer.links.rnn.n_step_rnn.NStepRNNBase`.
    """

    n_weights = 8
    n_cells = 2

    def forward(self, hx, cx, xs, **kwargs):
        """forward(self, hx, cx, xs)

        Runs the LSTM over a batch of sequences.

        Args:
            hx (~chainer.Variable or None): Initial hidden states of shape
                ``(S * D, B, N)`` (``S`` layers, ``D`` directions, ``B``
                sequences, ``N`` units); zero if ``None``.
            cx (~chainer.Variable or None): Initial cell states, shaped
                like ``hx``; zero if ``None``.
            xs (list of ~chainer.Variable): The ``B`` input sequences, each
                of shape ``(L_i, in_size)``, in any order of lengths.

        Returns:
            tuple: ``(hy, cy, ys)``: the final hidden and cell states,
            shaped like ``hx``, and the list of the last layer's outputs
            for each sequence, of shape ``(L_i, D * N)``.
        """
        (hy, cy), ys = self._call([hx, cx], xs, **kwargs)
        return hy, cy, ys


class NStepLSTM(NStepLSTMBase):

    """__init__(self, n_layers, in_size, out_size, dropout, \
*, initialW=None, initial_bias=None)

    Multi-layer LSTM link, forward in time, over variable-length sequences.

    Unlike :func:`~chainer.functions.n_step_lstm`, it takes the sequences
    in any order of lengths and as a plain list (it sorts and transposes
    them itself).

    Example:
        >>> lstm = L.NStepLSTM(2, 3, 4, 0.0)
        >>> xs = [np.ones((5, 3), np.float32), np.ones((2, 3), np.float32)]
        >>> hy, cy, ys = lstm(None, None, xs)
        >>> hy.shape, [y.shape for y in ys]
        ((2, 2, 4), [(5, 4), (2, 4)])
    """

    use_bi_direction = False

    def rnn(self, *args):
        return rnn.n_step_lstm(*args)


class NStepBiLSTM(NStepLSTMBase):

    """__init__(self, n_layers, in_size, out_size, dropout, \
*, initialW=None, initial_bias=None)

    Multi-layer LSTM link, both ways in time, over variable-length
    sequences.

    Each layer runs forward and backward in time; its outputs concatenate
    both directions (see :func:`~chainer.functions.n_step_bilstm`).
    """

    use_bi_direction = True

    def rnn(self, *args):
        return rnn.n_step_bilstm(*args)
