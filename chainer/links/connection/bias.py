"""A link that adds a bias, learnt or given."""

from chainer import configuration
from chainer.functions.math import bias
from chainer import link
from chainer import variable


class Bias(link.Link):
    """Adds a bias broadcast along the axes from ``axis`` on, as
    :func:`~chainer.functions.bias`.

    With ``shape``, the bias is a zero-initialized parameter ``b``;
    otherwise it is the second argument of each call.

    Args:
        axis (int): The first axis of the input that the bias covers.
        shape (tuple of ints): Shape of the learnt bias; ``None`` takes the
            bias as an input instead.

    Attributes:
        b (~chainer.Parameter): The learnt bias, when ``shape`` is given.

    .. admonition:: Example

        >>> add = L.Bias(axis=1, shape=(3,))
        >>> add(np.ones((2, 3, 4), np.float32)).shape
        (2, 3, 4)
    """

    def __init__(self, axis=1, shape=None):
        super().__init__()
        if shape is not None:
            with self.init_scope():
                self.b = variable.Parameter(0, shape)
        self.axis = axis

    def forward(self, *xs):
        """Adds the bias.

        Args:
            *xs: The input ``x``, followed by the bias ``y`` when the link
                holds none.

        Returns:
            ~chainer.Variable: ``x`` plus the broadcast bias.
        """
        if hasattr(self, 'b'):
            if configuration.is_debug():
                assert len(xs) == 1
            x, = xs
            return bias.bias(x, self.b, self.axis)
        if configuration.is_debug():
            assert len(xs) == 2
        x, y = xs
        return bias.bias(x, y, self.axis)
