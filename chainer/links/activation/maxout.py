"""Maxout layer."""

import numpy

import chainer
from chainer.functions.activation import maxout
from chainer import initializer
from chainer import link
from chainer.links.connection import linear


def _is_plain(init):
    # None, scalars and Initializer objects fill any shape alike.
    return init is None or numpy.isscalar(init) or isinstance(
        init, initializer.Initializer)


def _reshaping_initializer(init, shape):
    # Lets a callable fill the parameter seen in its unflattened shape (a
    # view of the fresh, contiguous parameter array).
    def fill(array):
        init(array.reshape(shape))
    return fill


class Maxout(link.Chain):
    """Maxout layer: a linear map to ``out_size * pool_size`` units
    followed by the maximum over each group of ``pool_size`` units.

    Args:
        in_size (int): Width of each input row.
        out_size (int): Width of each output row.
        pool_size (int): Number of linear pieces per output unit.
        initialW: Initializer of the weight; an array must have shape
            ``(out_size, pool_size, in_size)``, and a callable gets the
            array in that shape.
        initial_bias: Initializer of the bias; an array must have shape
            ``(out_size, pool_size)``. ``None`` means no bias.

    Attributes:
        linear (~chainer.links.Linear): The linear map, whose output unit
            ``o * pool_size + p`` is piece ``p`` of output ``o``.

    See: Goodfellow et al., `Maxout Networks
    <https://arxiv.org/abs/1302.4389>`_
    """

    def __init__(self, in_size, out_size, pool_size, initialW=None,
                 initial_bias=0):
        super().__init__()
        linear_out_size = out_size * pool_size
        if not _is_plain(initialW):
            if isinstance(initialW, chainer.get_array_types()):
                if initialW.ndim != 3:
                    raise ValueError('initialW.ndim should be 3')
                initialW = initialW.reshape(linear_out_size, in_size)
            elif callable(initialW):
                initialW = _reshaping_initializer(
                    initialW, (out_size, pool_size, in_size))
        if not _is_plain(initial_bias):
            if isinstance(initial_bias, chainer.get_array_types()):
                if initial_bias.ndim != 2:
                    raise ValueError('initial_bias.ndim should be 2')
                initial_bias = initial_bias.reshape(linear_out_size)
            elif callable(initial_bias):
                initial_bias = _reshaping_initializer(
                    initial_bias, (out_size, pool_size))
        with self.init_scope():
            self.linear = linear.Linear(
                in_size, linear_out_size, nobias=initial_bias is None,
                initialW=initialW, initial_bias=initial_bias)
        self.out_size = out_size
        self.pool_size = pool_size

    def forward(self, x):
        """Applies the layer.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_size)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_size)``.
        """
        return maxout.maxout(self.linear(x), self.pool_size)
