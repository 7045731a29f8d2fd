"""Numerical helpers shared by the distributions."""

import warnings

import numpy

import chainer
from chainer import function_node
from chainer.functions.array import where
from chainer.functions.math import exponential
from chainer import utils


class ModifiedXLogX(function_node.FunctionNode):

    """``x log(x)`` extended by continuity with ``0`` at ``x = 0``.

    The logarithm is computed outside the node (as a differentiable
    Variable with ``log(1)`` where ``x`` is not positive), so that the
    gradient ``1 + log(x)`` is differentiable again.
    """

    def __init__(self, logx):
        self._logx = logx

    def forward(self, inputs):
        x, = inputs
        self._x_is_zero = utils.force_array(x == 0)
        y = utils.force_array(x * self._logx.array)
        y[self._x_is_zero] = 0
        return y,

    def backward(self, indexes, grad_outputs):
        if self._x_is_zero.any():
            warnings.warn(
                'The gradient of x log(x) is not defined at x = 0; it is '
                'computed as 0 there.', RuntimeWarning)
        gy, = grad_outputs
        nonzero = (~self._x_is_zero).astype(gy.dtype)
        return gy * (1 + self._logx) * nonzero,


def _modified_xlogx(x):
    """``x log(x)``, with ``0`` where ``x`` is ``0``, differentiably.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Non-negative
            values.

    Returns:
        ~chainer.Variable: ``x log(x)``.
    """
    x = chainer.as_variable(x)
    xp = x.xp
    positive = utils.force_array(x.array > 0)
    logx = exponential.log(where.where(positive, x, xp.ones_like(x.array)))
    return ModifiedXLogX(logx).apply((x,))[0]


def _random_array(xp, name, shape, dtype, *args):
    """Draws an array from the global random generator of ``xp``.

    On NumPy the draw is made in the generator's own dtype and cast, so that
    ``numpy.random.seed`` gives the numbers Chainer gives; CuPy draws in
    ``dtype`` directly (float16 through float32).

    Args:
        xp (module): :mod:`numpy` or :mod:`cupy`.
        name (str): Name of the sampler of ``xp.random`` (``'gamma'``, ...).
        shape (tuple of ints): Shape of the result.
        dtype: Dtype of the result.
        *args: Parameters of the sampler, before ``size``.

    Returns:
        :ref:`ndarray`: The random array.
    """
    sampler = getattr(xp.random, name)
    if xp is numpy:
        return sampler(*args, size=shape).astype(dtype)
    if numpy.dtype(dtype) == numpy.float16:
        # cuRAND draws float32 and float64 only.
        return sampler(*args, size=shape, dtype=numpy.float32).astype(dtype)
    return sampler(*args, size=shape, dtype=dtype)
