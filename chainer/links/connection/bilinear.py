"""Bilinear layer."""

import numpy

from chainer.backends import cuda
from chainer.functions.connection import bilinear
from chainer import initializers
from chainer import link
from chainer import variable


def _check_shape(initial, shape):
    if isinstance(initial, (numpy.ndarray, cuda.ndarray)):
        assert initial.shape == shape


class Bilinear(link.Link):
    """Bilinear layer, holding the parameters of
    :func:`~chainer.functions.bilinear`.

    ``y = e1^T W e2 + e1^T V1 + e2^T V2 + b`` for each pair of vectors.

    Args:
        left_size (int): Dimension of the left vectors ``e1``.
        right_size (int): Dimension of the right vectors ``e2``.
        out_size (int): Dimension of the output.
        nobias (bool): If ``True``, only the bilinear term is kept (no
            ``V1``, ``V2``, ``b``).
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias (tuple or None): Initializers ``(V1, V2, b)``;
            ``None`` means LeCunNormal for ``V1`` and ``V2`` and zeros for
            ``b``.

    Attributes:
        W (~chainer.Parameter): Shape ``(left_size, right_size,
            out_size)``.
        V1 (~chainer.Parameter): Shape ``(left_size, out_size)``.
        V2 (~chainer.Parameter): Shape ``(right_size, out_size)``.
        b (~chainer.Parameter): Shape ``(out_size,)``.
    """

    def __init__(self, left_size, right_size, out_size, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        self.in_sizes = (left_size, right_size)
        self.nobias = nobias
        with self.init_scope():
            shape = (left_size, right_size, out_size)
            _check_shape(initialW, shape)
            self.W = variable.Parameter(
                initializers._get_initializer(initialW), shape)
            if nobias:
                return
            V1_shape = (left_size, out_size)
            V2_shape = (right_size, out_size)
            b_shape = (out_size,)
            if isinstance(initial_bias, tuple):
                initialV1, initialV2, initialb = initial_bias
                _check_shape(initialV1, V1_shape)
                _check_shape(initialV2, V2_shape)
                _check_shape(initialb, b_shape)
                initialV1 = initializers._get_initializer(initialV1)
                initialV2 = initializers._get_initializer(initialV2)
                initialb = initializers._get_initializer(initialb)
            elif initial_bias is None:
                initialV1 = initializers._get_initializer(None)
                initialV2 = initializers._get_initializer(None)
                initialb = 0
            else:
                raise ValueError('initial_bias must be tuple or None')
            self.V1 = variable.Parameter(initialV1, V1_shape)
            self.V2 = variable.Parameter(initialV2, V2_shape)
            self.b = variable.Parameter(initialb, b_shape)

    def forward(self, e1, e2):
        """Applies the bilinear map.

        Args:
            e1 (:class:`~chainer.Variable` or :ref:`ndarray`): Left input
                of shape ``(n, left_size)``.
            e2 (:class:`~chainer.Variable` or :ref:`ndarray`): Right input
                of shape ``(n, right_size)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_size)``.
        """
        if self.nobias:
            return bilinear.bilinear(e1, e2, self.W)
        return bilinear.bilinear(e1, e2, self.W, self.V1, self.V2, self.b)

    def zero_grads(self):
        """Fills the gradients with zeros (deprecated alias of
        :meth:`~chainer.Link.zerograds`)."""
        self.zerograds()
