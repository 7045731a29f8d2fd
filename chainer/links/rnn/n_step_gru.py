from chainer.functions.rnn import n_step_gru as rnn
from chainer.links.rnn import n_step_rnn


class NStepGRUBase(n_step_rnn.NStepRNNBase):

    """__init__(self, n_layers, in_size, out_size, dropout, \
*, initialW=None, initial_bias=None)

    Base class of the stacked GRU links over whole sequences.

    Each layer and direction has six weights ``w0, ..., w5`` and biases
    ``b0, ..., b5``: ``w0..w2`` act on the layer input and ``w3..w5`` on
    the hidden state (see :func:`~chainer.functions.n_step_gru`).

    The arguments are those of
    :class:`~chainer.links.rnn.n_step_rnn.NStepRNNBase`.
    """

    n_weights = 6


class NStepGRU(NStepGRUBase):

    """__init__(self, n_layers, in_size, out_size, dropout, \
*, initialW=None, initial_bias=None)

    Multi-layer GRU link, forward in time, over variable-length sequences.

    Unlike :func:`~chainer.functions.n_step_gru`, it takes the sequences in
    any order of lengths and as a plain list (it sorts and transposes them
    itself). Called as ``gru(hx, xs)``, it returns ``(hy, ys)``.
    """

    use_bi_direction = False

    def rnn(self, *args):
        return rnn.n_step_gru(*args)


class NStepBiGRU(NStepGRUBase):

    """__init__(self, n_layers, in_size, out_size, dropout, \
*, initialW=None, initial_bias=None)

    Multi-layer GRU link, both ways in time, over variable-length
    sequences.

    Each layer runs forward and backward in time; its outputs concatenate
    both directions (see :func:`~chainer.functions.n_step_bigru`).
    """

    use_bi_direction = True

    def rnn(self, *args):
        return rnn.n_step_bigru(*args)
