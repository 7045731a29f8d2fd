"""Group normalization layer."""

import numpy

from chainer import configuration
from chainer.functions.normalization import group_normalization
from chainer import initializers
from chainer import link
from chainer import variable


class GroupNormalization(link.Link):
    """Group normalization layer, holding the scale and the shift of
    :func:`~chainer.functions.group_normalization`.

    The channels of each example are split into ``groups`` groups, each
    normalized by its own mean and variance, then every channel is scaled
    by ``gamma`` and shifted by ``beta``.

    Args:
        groups (int): Number of groups; it must divide the channels.
        size (int or None): Number of channels; ``None`` to infer it at the
            first call.
        eps (float): Added to the variance for numerical stability.
        initial_gamma: Initializer of ``gamma``; ``None`` means ones.
        initial_beta: Initializer of ``beta``; ``None`` means zeros.

    Attributes:
        groups (int): Number of groups.
        gamma (~chainer.Parameter): Scale of shape ``(size,)``.
        beta (~chainer.Parameter): Shift of shape ``(size,)``.
        eps (float): Epsilon of the variance.

    See: Wu and He, `Group Normalization <https://arxiv.org/abs/1803.08494>`_
    """

    def __init__(self, groups, size=None, eps=1e-5, initial_gamma=None,
                 initial_beta=None):
        super().__init__()
        if initial_gamma is None:
            initial_gamma = 1
        if initial_beta is None:
            initial_beta = 0
        dtype = configuration.get_dtype(None, map_mixed16=numpy.float32)
        self.groups = groups
        self.eps = eps
        gamma_initializer = initializers._get_initializer(initial_gamma)
        gamma_initializer.dtype = dtype
        beta_initializer = initializers._get_initializer(initial_beta)
        beta_initializer.dtype = dtype
        with self.init_scope():
            self.gamma = variable.Parameter(gamma_initializer)
            self.beta = variable.Parameter(beta_initializer)
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def forward(self, x):
        """Normalizes the input.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, channels, ...)``.

        Returns:
            ~chainer.Variable: Output of the same shape.
        """
        if self.gamma.array is None:
            if x.ndim < 2:
                raise ValueError(
                    'Input dimension must be at least 2, including batch '
                    'size dimension (first dimension).')
            self._initialize_params(x.shape[1])
        return group_normalization.group_normalization(
            x, self.groups, self.gamma, self.beta, self.eps)
