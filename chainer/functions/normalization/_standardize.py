"""Standardization with cached statistics, differentiable to any order.

Batch, group and layer normalization all standardize an array along some
axes, ``x_hat = (x - mean(x)) * inv_std(x)`` with
``inv_std = (var(x) + eps) ** -0.5``, and differ only in the axes and the
affine transform around it. The nodes here compute that standardization
from statistics computed once in the forward pass, but differentiate it as
the function of ``x`` that it is (statistics included), so that gradients
built from them can be differentiated again:

- :class:`Standardize`: ``x -> x_hat``.
- :class:`StandardizeGrad`: ``(x, v) -> inv_std * P(v)``, the gradient of
  :class:`Standardize` for an output gradient ``v``, where
  ``P(v) = v - mean(v) - x_hat * mean(v * x_hat)`` (means along the
  reduced axes).
- :class:`MulInvStd`: ``(x, v) -> inv_std * v``.

:class:`ScaleShiftGrad` is the gradient of the affine transform that
follows the standardization.

All arrays (``x``, the statistics and the gradients) share one float dtype.
"""

import functools
import string

import numpy

from chainer import backend
from chainer.functions.array import broadcast
from chainer.functions.array import reshape as reshape_module
from chainer.functions.math import sum as sum_module
from chainer import function_node
from chainer import utils


@functools.lru_cache(maxsize=256)
def _einsum_subscripts(ndim, axis):
    letters = string.ascii_letters[:ndim]
    kept = ''.join([c for i, c in enumerate(letters) if i not in axis])
    return '{0},{0}->{1}'.format(letters, kept)


def sum_of_products(a, b, axis):
    """``(a * b).sum(axis)``, without the temporary array on the CPU."""
    if isinstance(a, numpy.ndarray):
        return numpy.einsum(_einsum_subscripts(a.ndim, axis), a, b)
    return (a * b).sum(axis=axis)


class Statistics:

    """Mean and inverse standard deviation of an array along some axes.

    Args:
        mean (:ref:`ndarray`): The mean, of the array's rank with length one
            along ``axis``.
        inv_std (:ref:`ndarray`): ``(var + eps) ** -0.5``, shaped as
            ``mean``.
        axis (tuple of int): The reduced axes.
    """

    __slots__ = ('mean', 'inv_std', 'axis')

    def __init__(self, mean, inv_std, axis):
        self.mean = mean
        self.inv_std = inv_std
        self.axis = axis

    def x_hat(self, x):
        """Returns the standardized ``x`` as a new array."""
        x_hat = x - self.mean
        x_hat *= self.inv_std
        return x_hat

    def project(self, v, x_hat):
        """Returns ``inv_std * P(v)`` as a new array."""
        axis = self.axis
        shape = self.mean.shape
        inv_m = v.dtype.type(self.mean.size / max(v.size, 1))
        v_mean = v.sum(axis=axis, keepdims=True)
        v_mean *= inv_m
        vx_mean = sum_of_products(v, x_hat, axis).reshape(shape)
        vx_mean *= inv_m
        out = x_hat * vx_mean
        out += v_mean
        backend.get_array_module(out).subtract(v, out, out=out)
        out *= self.inv_std
        return out

    def mean_of(self, v):
        """Mean of a variable along the reduced axes, with kept dims."""
        size = v.size // self.mean.size
        return sum_module.sum(v, axis=self.axis, keepdims=True) * (1. / size)


class Standardize(function_node.FunctionNode):

    """``x -> (x - mean) * inv_std`` along the statistics' axes."""

    def __init__(self, stats):
        self.stats = stats

    def forward(self, inputs):
        self.retain_inputs((0,))
        return self.stats.x_hat(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return StandardizeGrad(self.stats).apply((x, grad_outputs[0]))


class StandardizeGrad(function_node.FunctionNode):

    """``(x, v) -> inv_std * P(v)``: the gradient of :class:`Standardize`.
    """

    def __init__(self, stats, x_hat=None):
        self.stats = stats
        self._x_hat = x_hat

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        x, v = inputs
        x_hat = self._x_hat
        self._x_hat = None
        if x_hat is None:
            x_hat = self.stats.x_hat(x)
        return self.stats.project(v, x_hat),

    def backward(self, indexes, grad_outputs):
        x, v = self.get_retained_inputs()
        out, = self.get_retained_outputs()
        u, = grad_outputs
        if u is None:
            return None, None
        ret = []
        if 0 in indexes:
            ret.append(grad_x_of_projection(
                self.stats, x, u, v, self.stats.mean_of(u * out)))
        if 1 in indexes:
            # P is self-adjoint.
            ret.append(StandardizeGrad(self.stats).apply((x, u))[0])
        return ret


class MulInvStd(function_node.FunctionNode):

    """``(x, v) -> inv_std * v``, where ``inv_std`` is a function of ``x``.
    """

    def __init__(self, stats):
        self.stats = stats

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return inputs[1] * self.stats.inv_std,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        out, = self.get_retained_outputs()
        gout, = grad_outputs
        if gout is None:
            return None, None
        stats = self.stats
        ret = []
        if 0 in indexes:
            # d inv_std / dx = -inv_std ** 2 * x_hat / m
            x_hat, = Standardize(stats).apply((x,))
            ret.append(-mul_inv_std(
                stats, x, x_hat * stats.mean_of(gout * out)))
        if 1 in indexes:
            ret.append(mul_inv_std(stats, x, gout))
        return ret


class ScaleShiftGrad(function_node.FunctionNode):

    """Gradients of ``y = x_hat * gamma + beta``: ``(x_hat, gamma, gy)`` to
    ``(gx_hat, ggamma, gbeta)``.

    Args:
        axis (tuple of int): The axes of ``x_hat`` that ``gamma`` does not
            span.
        param_shape (tuple of int): The shape ``gamma`` takes to broadcast
            with ``x_hat``.
    """

    def __init__(self, axis, param_shape):
        self.axis = axis
        self.param_shape = param_shape

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x_hat, gamma, gy = inputs
        gx_hat = gy * gamma.reshape(self.param_shape)
        ggamma = sum_of_products(gy, x_hat, self.axis)
        gbeta = gy.sum(axis=self.axis)
        return gx_hat, utils.force_array(ggamma), utils.force_array(gbeta)

    def backward(self, indexes, grad_outputs):
        x_hat, gamma, gy = self.get_retained_inputs()
        ggx_hat, gggamma, ggbeta = grad_outputs
        shape = self.param_shape
        g_x_hat = g_gamma = g_gy = None
        if ggx_hat is not None:
            g_gamma = sum_module.sum(ggx_hat * gy, axis=self.axis)
            g_gy = ggx_hat * reshape_to(gamma, shape)
        if gggamma is not None:
            gggamma = reshape_to(gggamma, shape)
            g_x_hat = gy * gggamma
            term = x_hat * gggamma
            g_gy = term if g_gy is None else g_gy + term
        if ggbeta is not None:
            ggbeta = reshape_to(ggbeta, shape)
            if g_gy is None:
                g_gy = broadcast.broadcast_to(ggbeta, gy.shape)
            else:
                g_gy = g_gy + ggbeta
        return g_x_hat, g_gamma, g_gy


def mul_inv_std(stats, x, v):
    return MulInvStd(stats).apply((x, v))[0]


def standardize_grad(stats, x, v):
    return StandardizeGrad(stats).apply((x, v))[0]


def grad_x_of_projection(stats, x, u, v, r_mean):
    """Gradient of ``sum(u * inv_std * P(v))`` with respect to ``x``.

    Args:
        stats (Statistics): The statistics of ``x``.
        x, u, v (~chainer.Variable): Arrays of the shape of ``x``.
        r_mean (~chainer.Variable): ``mean(u * inv_std * P(v))`` along the
            reduced axes, with kept dims.

    Returns:
        ~chainer.Variable: The gradient, of the shape of ``x``.
    """
    x_hat, = Standardize(stats).apply((x,))
    # The gradient with respect to x_hat (inv_std held fixed) ...
    g_x_hat = -mul_inv_std(
        stats, x,
        stats.mean_of(v * x_hat) * u + stats.mean_of(u * x_hat) * v)
    # ... through x_hat, plus the gradient through inv_std.
    return (standardize_grad(stats, x, g_x_hat)
            - mul_inv_std(stats, x, x_hat * r_mean))


def reshape_to(v, shape):
    """Reshapes a variable unless it has the shape already."""
    if v.shape == shape:
        return v
    return reshape_module.reshape(v, shape)
