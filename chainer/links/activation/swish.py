"""Swish activation layer."""

from chainer.functions.activation import swish
from chainer import initializers
from chainer import link
from chainer import variable


class Swish(link.Link):
    """Swish layer, holding the parameter ``beta`` of
    :func:`~chainer.functions.swish`: ``y = x * sigmoid(beta * x)``.

    Args:
        beta_shape (tuple of ints or None): Shape of ``beta``; it covers
            the axes of the input from the second one on. ``None`` infers
            it from the first input.
        beta_init (float): Initial value of ``beta``.

    Attributes:
        beta (~chainer.Parameter): The parameter.

    See: Ramachandran et al., `Searching for Activation Functions
    <https://arxiv.org/abs/1710.05941>`_
    """

    def __init__(self, beta_shape, beta_init=1.0):
        super().__init__()
        with self.init_scope():
            if beta_shape is not None:
                self.beta = variable.Parameter(beta_init, beta_shape)
            else:
                self.beta = variable.Parameter(
                    initializers.Constant(beta_init))

    def forward(self, x):
        """Applies swish.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input.

        Returns:
            ~chainer.Variable: Output of the same shape.
        """
        if self.beta.array is None:
            self.beta.initialize(x.shape[1:])
        return swish.swish(x, self.beta)
