import chainer
from chainer.functions.array import concat
from chainer.functions.array import reshape
from chainer.functions.array import split_axis
from chainer.functions.rnn import lstm
from chainer import initializers
from chainer import link
from chainer.links.connection import linear
from chainer.links.rnn import _stateful
from chainer import utils


def _split_gates(lstm_in, n_units):
    """Splits the interleaved gates of an LSTM input into four variables.

    The second axis of ``lstm_in`` holds ``4 * n_units`` values laid out as
    :func:`~chainer.functions.lstm` expects: the four gates ``a, i, f, o`` of
    each unit side by side.

    Returns:
        list of ~chainer.Variable: ``[a, i, f, o]``, each of shape
        ``(batch, n_units)``.
    """
    batch = len(lstm_in)
    gates = reshape.reshape(lstm_in, (batch, n_units, 4))
    return [reshape.reshape(g, (batch, n_units))
            for g in split_axis.split_axis(gates, 4, 2)]


class LSTMBase(link.Chain):

    """Parameters shared by :class:`LSTM` and :class:`StatelessLSTM`.

    Holds an ``upward`` :class:`~chainer.links.Linear` (input to the four
    gates, with bias) and a ``lateral`` one (previous output to the gates,
    without bias). The weights of each gate block are filled separately by
    ``upward_init`` and ``lateral_init``; the biases of the cell input, the
    input gate and the output gate by ``bias_init`` (zero by default) and
    those of the forget gate by ``forget_bias_init`` (one by default).
    """

    def __init__(self, in_size, out_size=None, lateral_init=None,
                 upward_init=None, bias_init=None, forget_bias_init=None):
        if out_size is None:
            in_size, out_size = None, in_size
        super().__init__()
        self.state_size = out_size
        self.lateral_init = lateral_init
        self.upward_init = upward_init
        self.bias_init = 0 if bias_init is None else bias_init
        self.forget_bias_init = (
            1 if forget_bias_init is None else forget_bias_init)

        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size, initialW=0)
            self.lateral = linear.Linear(
                out_size, 4 * out_size, initialW=0, nobias=True)
        if in_size is not None:
            self._initialize_params()

    def _initialize_params(self):
        lateral_init = initializers._get_initializer(self.lateral_init)
        upward_init = initializers._get_initializer(self.upward_init)
        bias_init = initializers._get_initializer(self.bias_init)
        forget_bias_init = initializers._get_initializer(
            self.forget_bias_init)

        n = self.state_size
        for start in range(0, 4 * n, n):
            lateral_init(self.lateral.W.array[start:start + n])
            upward_init(self.upward.W.array[start:start + n])

        # The gates of each unit lie side by side in the bias: a, i, f, o.
        gates = self.upward.b.array.reshape(1, n, 4)
        bias_init(gates[:, :, 0])
        bias_init(gates[:, :, 1])
        forget_bias_init(gates[:, :, 2])
        bias_init(gates[:, :, 3])

    def _lazy_init(self, x):
        # Initializes the upward weights from the first input's size.
        if self.upward.W.array is None:
            with chainer.using_device(self.device):
                self.upward._initialize_params(
                    utils.size_of_shape(x.shape[1:]))
                self._initialize_params()


class StatelessLSTM(LSTMBase):

    """LSTM link to which the caller passes the state at every step.

    It takes the arguments of :class:`LSTM` and holds the same ``upward``
    and ``lateral`` child links, but the cell state and the previous output
    are given to each call and the new ones are returned.

    Example:
        >>> l = L.StatelessLSTM(10, 20)
        >>> x = np.zeros((1, 10), np.float32)
        >>> c_new, h_new = l(None, None, x)
        >>> c_new.shape, h_new.shape
        ((1, 20), (1, 20))
    """

    def forward(self, c, h, x):
        """Computes the new cell state and output.

        Args:
            c (~chainer.Variable or None): Cell states; zero if ``None``.
            h (~chainer.Variable or None): Outputs of the previous step;
                no lateral input if ``None``.
            x (~chainer.Variable): Inputs of this step.

        Returns:
            tuple of ~chainer.Variable: ``(c_new, h_new)``.
        """
        self._lazy_init(x)
        lstm_in = self.upward(x)
        if h is not None:
            lstm_in = lstm_in + self.lateral(h)
        if c is None:
            c = _stateful.zero_state(
                self, x.shape[0], self.state_size, x.dtype)
        return lstm.lstm(c, lstm_in)


class LSTM(_stateful.StateMixin, LSTMBase):

    """LSTM link that carries its cell state and output between calls.

    It holds the upward and lateral connections as child links and the cell
    state ``c`` and the previous output ``h`` as attributes, updated at each
    call.

    The batch may shrink along a sequence (sort sequences by decreasing
    length): with a batch of ``B`` rows, only the first ``B`` rows of ``c``
    and ``h`` are updated and the others are kept.

    Args:
        in_size (int or None): Width of each input row. If ``None`` (or
            when only one size is given), the upward weights are initialized
            at the first call.
        out_size (int): Width of the output and of the cell state.
        lateral_init: Initializer of the lateral weights.
        upward_init: Initializer of the upward weights.
        bias_init: Initializer (or scalar) of the biases of the cell input,
            input gate and output gate; zero if ``None``.
        forget_bias_init: Initializer (or scalar) of the forget gate biases;
            one if ``None``.

    Attributes:
        upward (~chainer.links.Linear): Maps the input to the gates.
        lateral (~chainer.links.Linear): Maps the previous output to the
            gates.
        c (~chainer.Variable): The cell state.
        h (~chainer.Variable): The output of the last call.

    Example:
        >>> l = L.LSTM(10, 20)
        >>> y = l(np.zeros((3, 10), np.float32))
        >>> y.shape, l.c.shape
        ((3, 20), (3, 20))
    """

    _state_names = ('c', 'h')

    def __init__(self, in_size, out_size=None, lateral_init=None,
                 upward_init=None, bias_init=None, forget_bias_init=None):
        super().__init__(in_size, out_size, lateral_init, upward_init,
                         bias_init, forget_bias_init)
        self.reset_state()

    def set_state(self, c, h):
        """Sets the cell state and the previous output.

        Args:
            c (~chainer.Variable): New cell states.
            h (~chainer.Variable): New outputs of the previous step.
        """
        self._set_states(c, h)

    def forward(self, x):
        """Updates the state with one step of inputs.

        Args:
            x (~chainer.Variable): Inputs of this step.

        Returns:
            ~chainer.Variable: The outputs of this step.
        """
        self._lazy_init(x)
        batch = x.shape[0]
        lstm_in = self.upward(x)
        h_rest = None
        if self.h is not None:
            h_size = self.h.shape[0]
            if batch == 0:
                h_rest = self.h
            elif h_size < batch:
                raise TypeError(
                    'The batch size of x must be equal to or less than '
                    'the size of the previous state h.')
            elif h_size > batch:
                h_update, h_rest = split_axis.split_axis(
                    self.h, [batch], axis=0)
                lstm_in = lstm_in + self.lateral(h_update)
            else:
                lstm_in = lstm_in + self.lateral(self.h)
        if self.c is None:
            self.c = _stateful.zero_state(self, batch, self.state_size,
                                         x.dtype)
        self.c, y = lstm.lstm(self.c, lstm_in)

        if h_rest is None:
            self.h = y
        elif len(y) == 0:
            self.h = h_rest
        else:
            self.h = concat.concat([y, h_rest], axis=0)
        return y
