"""Fully-connected layer."""

from chainer.functions.connection import linear
from chainer import initializers
from chainer import link
from chainer import utils
from chainer import variable


class Linear(link.Link):
    """Fully-connected layer, holding the weight and the bias of
    :func:`~chainer.functions.linear`.

    ``W`` has shape ``(out_size, in_size)`` and ``b`` shape ``(out_size,)``.
    When ``in_size`` is ``None``, ``W`` is made at the first call, from the
    size of the input's non-batch axes.

    Args:
        in_size (int or None): Dimension of the input vectors; ``None``
            for lazy initialization. Given alone, the argument is taken as
            ``out_size``: ``Linear(10)`` is ``Linear(None, 10)``.
        out_size (int): Width of each output row.
        nobias (bool): If ``True``, there is no bias.
        initialW: Initializer of ``W`` (an initializer, a scalar, an array
            of the shape of ``W``, or ``None`` for
            :class:`~chainer.initializers.LeCunNormal`).
        initial_bias: Initializer of ``b``; ``None`` means zeros.

    Attributes:
        W (~chainer.Parameter): Weight.
        b (~chainer.Parameter): Bias, or ``None``.

    .. admonition:: Example

        >>> l = L.Linear(None, 4)
        >>> l.W.array is None
        True
        >>> l(np.zeros((2, 3), np.float32)).shape
        (2, 4)
        >>> l.W.shape
        (4, 3)
    """

    def __init__(self, in_size, out_size=None, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        self.in_size = in_size
        self.out_size = out_size
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            if in_size is not None:
                self._initialize_params(in_size)
            if nobias:
                self.b = None
            else:
                if initial_bias is None:
                    initial_bias = 0
                self.b = variable.Parameter(
                    initializers._get_initializer(initial_bias), out_size)

    def _initialize_params(self, in_size):
        self.W.initialize((self.out_size, in_size))

    @classmethod
    def from_params(cls, W, b=None, nobias=False):
        """Makes a link holding copies of the given weight and bias.

        Args:
            W (:class:`~chainer.Variable` or :ref:`ndarray`): Weight of
                shape ``(out_size, in_size)``.
            b (:class:`~chainer.Variable` or :ref:`ndarray`): Bias of
                shape ``(out_size,)``, or ``None``.
            nobias (bool): If ``True``, the link has no bias.

        Returns:
            Linear: The new link.
        """
        out_size, in_size = W.shape
        if b is not None and out_size != b.size:
            raise ValueError('`out_size` does not match the size of `b`')
        return cls(in_size, out_size, nobias,
                   initialW=variable.as_array(W),
                   initial_bias=variable.as_array(b))

    @property
    def printable_specs(self):
        yield 'in_size', self.in_size
        yield 'out_size', self.out_size
        yield 'nobias', self.b is None

    def forward(self, x, n_batch_axes=1):
        """Applies the layer.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input; its
                leading ``n_batch_axes`` axes index the vectors.
            n_batch_axes (int): How many leading axes are batch axes.

        Returns:
            ~chainer.Variable: Output of shape ``x.shape[:n_batch_axes] +
            (out_size,)``.
        """
        if self.W.array is None:
            self._initialize_params(
                utils.size_of_shape(x.shape[n_batch_axes:]))
        return linear.linear(x, self.W, self.b, n_batch_axes=n_batch_axes)
