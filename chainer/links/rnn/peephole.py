from chainer.functions.activation import sigmoid
from chainer.functions.activation import tanh
from chainer import link
from chainer.links.connection import linear
from chainer.links.rnn import _stateful
from chainer.links.rnn import lstm


class StatefulPeepholeLSTM(_stateful.StateMixin, link.Chain):

    """LSTM layer whose gates also see the cell state (peepholes).

    Besides the ``upward`` and ``lateral`` connections of
    :class:`~chainer.links.LSTM`, the gates look at the cell state through
    ``peep_i``, ``peep_f`` and ``peep_o``:

    .. math::

       a &= \\tanh(U x + L h)_a, \\\\
       i &= \\sigma((U x + L h)_i + P_i c), \\\\
       f &= \\sigma((U x + L h)_f + P_f c), \\\\
       c' &= a \\odot i + f \\odot c, \\\\
       o &= \\sigma((U x + L h)_o + P_o c'), \\\\
       h' &= o \\odot \\tanh(c'),

    where :math:`U` is ``upward``, :math:`L` is ``lateral`` and the
    subscripts pick the gate blocks (interleaved per unit as in
    :func:`~chainer.functions.lstm`).

    Args:
        in_size (int): Width of the input :math:`x`.
        out_size (int): Width of the output :math:`h` and of the cell.

    Attributes:
        upward (~chainer.links.Linear): Maps the input to the gates.
        lateral (~chainer.links.Linear): Maps the previous output to the
            gates.
        peep_i (~chainer.links.Linear): Peephole to the input gate.
        peep_f (~chainer.links.Linear): Peephole to the forget gate.
        peep_o (~chainer.links.Linear): Peephole to the output gate.
        c (~chainer.Variable): The cell state.
        h (~chainer.Variable): Outputs of the last step.
    """

    _state_names = ('c', 'h')

    def __init__(self, in_size, out_size):
        super().__init__()
        self.state_size = out_size
        self.reset_state()
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size)
            self.lateral = linear.Linear(out_size, 4 * out_size, nobias=True)
            self.peep_i = linear.Linear(out_size, out_size, nobias=True)
            self.peep_f = linear.Linear(out_size, out_size, nobias=True)
            self.peep_o = linear.Linear(out_size, out_size, nobias=True)

    def forward(self, x):
        """Updates the state with one step of inputs.

        Args:
            x (~chainer.Variable): Inputs of this step.

        Returns:
            ~chainer.Variable: The outputs of this step.
        """
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in = lstm_in + self.lateral(self.h)
        if self.c is None:
            self.c = _stateful.zero_state(
                self, len(x), self.state_size, x.dtype)
        a, i, f, o = lstm._split_gates(lstm_in, self.state_size)
        a = tanh.tanh(a)
        i = sigmoid.sigmoid(i + self.peep_i(self.c))
        f = sigmoid.sigmoid(f + self.peep_f(self.c))
        self.c = a * i + f * self.c
        o = sigmoid.sigmoid(o + self.peep_o(self.c))
        self.h = o * tanh.tanh(self.c)
        return self.h
