from chainer.functions.activation import sigmoid
from chainer.functions.activation import tanh
from chainer.functions.noise import zoneout
from chainer import link
from chainer.links.connection import linear
from chainer.links.rnn import _stateful
from chainer.links.rnn import lstm
from chainer.utils import argument


class StatefulZoneoutLSTM(_stateful.StateMixin, link.Chain):

    """Stateful LSTM link whose cell state and output are zoned out.

    It computes the LSTM update of :class:`~chainer.links.LSTM`, then, in
    training mode, keeps each unit of the previous cell state (output) with
    probability ``c_ratio`` (``h_ratio``) instead of taking its new value
    (see :func:`~chainer.functions.zoneout`). The state starts at zero.

    Args:
        in_size (int): Width of each input row.
        out_size (int): Width of the output and of the cell state.
        c_ratio (float): Zoneout ratio of the cell state.
        h_ratio (float): Zoneout ratio of the output.

    Attributes:
        upward (~chainer.links.Linear): Maps the input to the gates.
        lateral (~chainer.links.Linear): Maps the previous output to the
            gates.
        c (~chainer.Variable): The cell state.
        h (~chainer.Variable): Outputs of the last step.

    See: `Zoneout: Regularizing RNNs by Randomly Preserving Hidden
    Activations <https://arxiv.org/abs/1606.01305>`_.
    """

    _state_names = ('c', 'h')

    def __init__(self, in_size, out_size, c_ratio=0.5, h_ratio=0.5, **kwargs):
        if kwargs:
            argument.check_unexpected_kwargs(
                kwargs, train='train argument is not supported anymore. '
                'Use chainer.using_config')
            argument.assert_kwargs_empty(kwargs)

        super().__init__()
        self.state_size = out_size
        self.c_ratio = c_ratio
        self.h_ratio = h_ratio
        self.reset_state()
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size)
            self.lateral = linear.Linear(out_size, 4 * out_size, nobias=True)

    set_state = lstm.LSTM.set_state

    def forward(self, x):
        """Updates the state with one step of inputs.

        Args:
            x (~chainer.Variable): Inputs of this step.

        Returns:
            ~chainer.Variable: The outputs of this step.
        """
        lstm_in = self.upward(x)
        if self.h is None:
            self.h = _stateful.zero_state(
                self, len(x), self.state_size, x.dtype)
        else:
            lstm_in = lstm_in + self.lateral(self.h)
        if self.c is None:
            self.c = _stateful.zero_state(
                self, len(x), self.state_size, x.dtype)
        a, i, f, o = lstm._split_gates(lstm_in, self.state_size)
        c_new = tanh.tanh(a) * sigmoid.sigmoid(i) + sigmoid.sigmoid(f) * self.c
        self.c = zoneout.zoneout(self.c, c_new, self.c_ratio)
        self.h = zoneout.zoneout(
            self.h, sigmoid.sigmoid(o) * tanh.tanh(c_new), self.h_ratio)
        return self.h
