from chainer.functions.activation import sigmoid
from chainer.functions.activation import tanh
from chainer.functions.math import linear_interpolate
from chainer import link
from chainer.links.connection import linear
from chainer.links.rnn import _stateful


class GRUBase(link.Chain):

    """Parameters shared by the GRU links.

    Holds six :class:`~chainer.links.Linear` links: ``W_r``, ``W_z`` and
    ``W`` from the input (``init`` weights), ``U_r``, ``U_z`` and ``U`` from
    the hidden state (``inner_init`` weights), all with ``bias_init``
    biases.
    """

    def __init__(self, in_size, out_size, init=None,
                 inner_init=None, bias_init=None):
        super().__init__()
        with self.init_scope():
            self.W_r = linear.Linear(
                in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U_r = linear.Linear(
                out_size, out_size, initialW=inner_init,
                initial_bias=bias_init)
            self.W_z = linear.Linear(
                in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U_z = linear.Linear(
                out_size, out_size, initialW=inner_init,
                initial_bias=bias_init)
            self.W = linear.Linear(
                in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U = linear.Linear(
                out_size, out_size, initialW=inner_init,
                initial_bias=bias_init)


class StatelessGRU(GRUBase):

    """Gated Recurrent Unit that keeps no state.

    Given the previous hidden vector :math:`h` and the input :math:`x`, it
    returns

    .. math::

       r &= \\sigma(W_r x + U_r h), \\\\
       z &= \\sigma(W_z x + U_z h), \\\\
       \\bar{h} &= \\tanh(W x + U (r \\odot h)), \\\\
       h' &= (1 - z) \\odot h + z \\odot \\bar{h}.

    Args:
        in_size (int or None): Dimension of the input :math:`x`; ``None``
            initializes the input weights at the first call.
        out_size (int): Width of the hidden state.
        init: Initializer of the input weights.
        inner_init: Initializer of the hidden-state weights.
        bias_init: Initializer of the biases (zero if ``None``).

    Example:
        >>> l = L.StatelessGRU(10, 20)
        >>> h = np.zeros((1, 20), np.float32)
        >>> l(h, np.zeros((1, 10), np.float32)).shape
        (1, 20)
    """

    def forward(self, h, x):
        """Returns the next hidden vector from ``h`` and the input ``x``."""
        r = sigmoid.sigmoid(self.W_r(x) + self.U_r(h))
        z = sigmoid.sigmoid(self.W_z(x) + self.U_z(h))
        h_bar = tanh.tanh(self.W(x) + self.U(r * h))
        return linear_interpolate.linear_interpolate(z, h_bar, h)


class StatefulGRU(_stateful.StateMixin, GRUBase):

    """Gated Recurrent Unit that keeps its hidden vector ``h``.

    It computes the same update as :class:`StatelessGRU` from its own ``h``
    and stores the result. At the first step (``h`` is ``None``) the terms
    of ``h`` vanish and the output is :math:`z \\odot \\bar{h}`.

    Args:
        in_size (int or None): Dimension of the input.
        out_size (int): Width of the hidden state.
        init: Initializer of the input weights.
        inner_init: Initializer of the hidden-state weights.
        bias_init: Initializer of the biases.

    Attributes:
        h (~chainer.Variable): The hidden vector, the state of the link.

    Example:
        >>> l = L.StatefulGRU(10, 20)
        >>> l(np.zeros((1, 10), np.float32)).shape
        (1, 20)
    """

    _state_names = ('h',)

    def __init__(self, in_size, out_size, init=None,
                 inner_init=None, bias_init=0):
        super().__init__(in_size, out_size, init, inner_init, bias_init)
        self.state_size = out_size
        self.reset_state()

    def set_state(self, h):
        """Sets the hidden vector.

        Args:
            h (~chainer.Variable): The new hidden vector.
        """
        self._set_states(h)

    def forward(self, x):
        """Updates the hidden vector with the input ``x`` and returns it."""
        z = self.W_z(x)
        h_bar = self.W(x)
        h = self.h
        if h is not None:
            r = sigmoid.sigmoid(self.W_r(x) + self.U_r(h))
            z = z + self.U_z(h)
            h_bar = h_bar + self.U(r * h)
        z = sigmoid.sigmoid(z)
        h_bar = tanh.tanh(h_bar)
        if h is None:
            self.h = z * h_bar
        else:
            self.h = linear_interpolate.linear_interpolate(z, h_bar, h)
        return self.h


class GRU(StatefulGRU):

    """Stateful Gated Recurrent Unit: an alias of :class:`StatefulGRU`.

    It only takes the input ``x``; calling it as the stateless GRU of
    Chainer v1 (``gru(h, x)``) raises a :class:`ValueError`.
    """

    def forward(self, *args):
        """forward(self, x)

        Updates the hidden vector with the input ``x`` and returns it.
        """
        n_args = len(args)
        msg = ('Invalid argument. The length of GRU.forward must be 1. '
               'But %d is given. ' % n_args)
        if n_args == 2:
            raise ValueError(
                msg + 'In Chainer v2, chainer.links.GRU is changed from '
                'stateless to stateful. One possibility is you assume GRU '
                'to be stateless. Use chainer.links.StatelessGRU instead.')
        if n_args != 1:
            raise ValueError(msg)
        return super().forward(args[0])
