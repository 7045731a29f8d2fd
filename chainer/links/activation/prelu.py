"""Parametric ReLU layer."""

from chainer.functions.activation import prelu
from chainer import link
from chainer import variable


class PReLU(link.Link):
    """Parametric ReLU layer, holding the slope of
    :func:`~chainer.functions.prelu`.

    Args:
        shape (tuple of ints): Shape of the slope ``W``; it covers the
            axes of the input from the second one on (``()`` shares one
            slope).
        init (float): Initial value of the slope.

    Attributes:
        W (~chainer.Parameter): The slope of the negative part.

    See: He et al., `Delving Deep into Rectifiers
    <https://arxiv.org/abs/1502.01852>`_
    """

    def __init__(self, shape=(), init=0.25):
        super().__init__()
        with self.init_scope():
            self.W = variable.Parameter(init, shape)

    def forward(self, x):
        """Applies the parametric ReLU.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input.

        Returns:
            ~chainer.Variable: Output of the same shape.
        """
        return prelu.prelu(x, self.W)
