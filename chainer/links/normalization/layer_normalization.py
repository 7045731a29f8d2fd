"""Layer normalization layer."""

from chainer.functions.normalization import layer_normalization
from chainer import link
from chainer import utils
from chainer import variable


class LayerNormalization(link.Link):
    """Layer normalization layer, holding the scale and the shift of
    :func:`~chainer.functions.layer_normalization`.

    Each example (a row of the input) is normalized by its own mean and
    variance, then scaled by ``gamma`` and shifted by ``beta`` element by
    element.

    Args:
        size (int or None): Size of each example; ``None`` to infer it at
            the first call from the non-batch axes of the input.
        eps (float): Added to the variance for numerical stability.
        initial_gamma: Initializer of ``gamma``; ``None`` means ones.
        initial_beta: Initializer of ``beta``; ``None`` means zeros.

    Attributes:
        gamma (~chainer.Parameter): Scale of shape ``(size,)``.
        beta (~chainer.Parameter): Shift of shape ``(size,)``.
        eps (float): Epsilon of the variance.

    See: Ba et al., `Layer Normalization <https://arxiv.org/abs/1607.06450>`_
    """

    def __init__(self, size=None, eps=1e-6, initial_gamma=None,
                 initial_beta=None):
        super().__init__()
        if initial_gamma is None:
            initial_gamma = 1
        if initial_beta is None:
            initial_beta = 0
        self.eps = eps
        with self.init_scope():
            self.gamma = variable.Parameter(initial_gamma)
            self.beta = variable.Parameter(initial_beta)
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def forward(self, x):
        """Normalizes the input.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, size)``.

        Returns:
            ~chainer.Variable: Output of the same shape.
        """
        if self.gamma.array is None:
            self._initialize_params(utils.size_of_shape(x.shape[1:]))
        return layer_normalization.layer_normalization(
            x, self.gamma, self.beta, self.eps)
