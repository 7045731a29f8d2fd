import numpy

from chainer import backend
from chainer.functions.array import cast
from chainer.functions.normalization import _standardize
from chainer import function_node
from chainer.utils import type_check


def _cast(v, dtype):
    if v.dtype == dtype:
        return v
    return cast.cast(v, dtype)


class LayerNormalization(function_node.FunctionNode):

    """Layer normalization: each row is normalized by its own mean and
    variance, then scaled and shifted per unit."""

    def __init__(self, eps=1e-5):
        self.eps = eps
        self.stats = None

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            gamma_type.ndim == 1,
            beta_type.ndim == 1,
            gamma_type.dtype == x_type.dtype,
            beta_type.dtype == x_type.dtype,
            gamma_type.shape == beta_type.shape,
        )
        type_check.expect(x_type.shape[1] == gamma_type.shape[0])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        dtype = numpy.promote_types(x.dtype, numpy.float32)

        mean = x.mean(axis=1, dtype=dtype, keepdims=True)
        y = xp.subtract(x, mean, dtype=dtype)
        var = _standardize.sum_of_products(y, y, (1,))[:, None]
        var *= dtype.type(1. / max(x.shape[1], 1))
        var += self.eps
        inv_std = xp.reciprocal(xp.sqrt(var, out=var), out=var)
        self.stats = _standardize.Statistics(mean, inv_std, (1,))

        y *= inv_std
        y *= gamma
        y += beta
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        stats = self.stats
        dtype = stats.mean.dtype
        x_c = _cast(x, dtype)
        x_hat, = _standardize.Standardize(stats).apply((x_c,))
        gx_hat, ggamma, gbeta = _standardize.ScaleShiftGrad(
            (0,), (1, -1)).apply(
                (x_hat, _cast(gamma, dtype), _cast(gy, dtype)))
        ret = []
        if 0 in indexes:
            gx, = _standardize.StandardizeGrad(stats, x_hat.array).apply(
                (x_c, gx_hat))
            ret.append(_cast(gx, x.dtype))
        if 1 in indexes:
            ret.append(_cast(ggamma, x.dtype))
        if 2 in indexes:
            ret.append(_cast(gbeta, x.dtype))
        return ret


def layer_normalization(x, gamma, beta, eps=1e-5):
    """Layer normalization.

    Normalizes each row of ``x`` (the units of one example) by its own
    mean and variance, then scales and shifts each unit:

    .. math::
        y = \\gamma \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Batch of vectors
            of shape ``(batch_size, unit_size)``, such as the output of
            :func:`~chainer.functions.linear`.
        gamma (:class:`~chainer.Variable` or :ref:`ndarray`): Scaling
            vector of shape ``(unit_size,)``.
        beta (:class:`~chainer.Variable` or :ref:`ndarray`): Shifting
            vector of shape ``(unit_size,)``.
        eps (float): Added to the variances for numerical stability.

    Returns:
        ~chainer.Variable: The result, shaped like ``x``.

    See: `Layer Normalization <https://arxiv.org/abs/1607.06450>`_

    .. seealso::

        :class:`~chainer.links.LayerNormalization`, which holds the
        parameters ``gamma`` and ``beta``.

    """
    return LayerNormalization(eps).apply((x, gamma, beta))[0]
