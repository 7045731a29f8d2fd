import chainer
from chainer.functions.activation import sigmoid
from chainer.functions.activation import tanh
from chainer.functions.array import concat
from chainer.functions.math import linear_interpolate
from chainer import link
from chainer.links.connection import linear
from chainer.links.rnn import _stateful


class MGUBase(link.Chain):

    """Parameters and update shared by the Minimal Gated Unit links.

    The Minimal Gated Unit (Zhou et al., 2016) has a single forget gate:

    .. math::

       f &= \\sigma(W_f [h, x]), \\\\
       \\bar{h} &= \\tanh(W_h [f \\odot h, x]), \\\\
       h' &= (1 - f) \\odot h + f \\odot \\bar{h},

    where :math:`[\\cdot, \\cdot]` concatenates along the feature axis.

    Args:
        n_inputs (int): Dimension of the input :math:`x`.
        n_units (int): Dimension of the hidden vector :math:`h`.
    """

    def __init__(self, n_inputs, n_units):
        super().__init__()
        with self.init_scope():
            self.W_f = linear.Linear(n_inputs + n_units, n_units)
            self.W_h = linear.Linear(n_inputs + n_units, n_units)

    def _call_mgu(self, h, x):
        f = sigmoid.sigmoid(self.W_f(concat.concat([h, x])))
        h_bar = tanh.tanh(self.W_h(concat.concat([f * h, x])))
        return linear_interpolate.linear_interpolate(f, h_bar, h)


class StatelessMGU(MGUBase):

    """Minimal Gated Unit that keeps no state.

    Called as ``mgu(h, x)``, it returns the next hidden vector (see
    :class:`MGUBase` for the update).

    Args:
        n_inputs (int): Dimension of the input.
        n_units (int): Dimension of the hidden vector.
    """

    def forward(self, h, x):
        """Returns the next hidden vector from ``h`` and the input ``x``."""
        return self._call_mgu(h, x)


class StatefulMGU(_stateful.StateMixin, MGUBase):

    """Minimal Gated Unit that keeps its hidden vector ``h``.

    The hidden vector starts at zero (of the default dtype,
    ``chainer.config.dtype``) and is replaced by each call's output.

    Args:
        in_size (int): Dimension of the input.
        out_size (int): Width of the hidden state.

    Attributes:
        h (~chainer.Variable): The hidden vector, the state of the link.
    """

    _state_names = ('h',)

    def __init__(self, in_size, out_size):
        super().__init__(in_size, out_size)
        self._state_size = out_size
        self.reset_state()

    def set_state(self, h):
        """Sets the hidden vector.

        Args:
            h (~chainer.Variable): The new hidden vector.
        """
        self._set_states(h)

    def forward(self, x):
        """Updates the hidden vector with the input ``x`` and returns it."""
        h = self.h
        if h is None:
            h = _stateful.zero_state(
                self, x.shape[0], self._state_size, chainer.get_dtype())
        self.h = self._call_mgu(h, x)
        return self.h
