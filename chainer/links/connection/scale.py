"""A link that multiplies by a scale, learnt or given."""

from chainer import configuration
from chainer.functions.math import scale
from chainer import link
from chainer.links.connection import bias
from chainer import variable


class Scale(link.Chain):
    """Multiplies by a scale broadcast along the axes from ``axis`` on, as
    :func:`~chainer.functions.scale`, optionally adding a bias.

    With ``W_shape``, the scale is a parameter ``W`` initialized to ones;
    otherwise it is the second argument of each call.

    Args:
        axis (int): The first axis of the input that the scale covers.
        W_shape (tuple of ints): Shape of the learnt scale; ``None`` takes
            the scale as an input instead.
        bias_term (bool): Whether to add a learnt bias (a
            :class:`~chainer.links.Bias` child named ``bias``).
        bias_shape (tuple of ints): Shape of the bias; required with
            ``bias_term`` when ``W_shape`` is ``None`` (it is ``W_shape``
            otherwise).

    Attributes:
        W (~chainer.Parameter): The learnt scale, when ``W_shape`` is
            given.
        bias (~chainer.links.Bias): The bias, with ``bias_term``.
    """

    def __init__(self, axis=1, W_shape=None, bias_term=False,
                 bias_shape=None):
        super().__init__()
        self.axis = axis
        with self.init_scope():
            if W_shape is not None:
                self.W = variable.Parameter(1, W_shape)
                if bias_term:
                    self.bias = bias.Bias(axis, W_shape)
            elif bias_term:
                if bias_shape is None:
                    raise ValueError(
                        'bias_shape should be given if W is not '
                        'learnt parameter and bias_term is True.')
                self.bias = bias.Bias(axis, bias_shape)

    def forward(self, *xs):
        """Scales (and shifts) the input.

        Args:
            *xs: The input ``x``, followed by the scale ``y`` when the link
                holds none.

        Returns:
            ~chainer.Variable: The scaled input, plus the bias with
            ``bias_term``.
        """
        if hasattr(self, 'W'):
            if configuration.is_debug():
                assert len(xs) == 1
            x, = xs
            z = scale.scale(x, self.W, self.axis)
        else:
            if configuration.is_debug():
                assert len(xs) == 2
            x, y = xs
            z = scale.scale(x, y, self.axis)
        if hasattr(self, 'bias'):
            return self.bias(z)
        return z
