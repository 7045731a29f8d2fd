import numpy

from chainer import backend
from chainer.functions.array import cast
from chainer.functions.array import reshape
from chainer.functions.normalization import _standardize
from chainer import function_node
from chainer.utils import type_check


def _cast(v, dtype):
    if v.dtype == dtype:
        return v
    return cast.cast(v, dtype)


class GroupNormalization(function_node.FunctionNode):

    """Group normalization: each sample's channels are split into groups,
    normalized by the group's own mean and variance, then scaled and
    shifted per channel."""

    def __init__(self, groups, eps=1e-5):
        if not isinstance(groups, int):
            raise TypeError('Argument: \'groups\' type must be (int).')
        self.groups = groups
        self.eps = eps
        self.stats = None

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            gamma_type.ndim == 1,
            beta_type.ndim == 1,
            gamma_type.dtype.kind == 'f',
            gamma_type.dtype == beta_type.dtype,
        )
        type_check.expect(
            x_type.shape[1] == gamma_type.shape[0],
            gamma_type.shape == beta_type.shape,
        )

    def forward(self, inputs):
        x, gamma, beta = inputs
        groups = self.groups
        batch_size, channels = x.shape[:2]
        if channels % groups != 0:
            raise ValueError(
                'The number of channels {} is not divisible by \'groups\' '
                'argument {}.'.format(channels, groups))
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x)
        dtype = numpy.promote_types(
            numpy.promote_types(x.dtype, gamma.dtype), numpy.float32)

        x2 = x.reshape(batch_size * groups, -1)
        mean = x2.mean(axis=1, dtype=dtype, keepdims=True)
        y = xp.subtract(x2, mean, dtype=dtype)
        var = _standardize.sum_of_products(y, y, (1,))[:, None]
        var *= dtype.type(1. / max(y.shape[1], 1))
        var += self.eps
        inv_std = xp.reciprocal(xp.sqrt(var, out=var), out=var)
        self.stats = _standardize.Statistics(mean, inv_std, (1,))

        # y = (x - mean) * (inv_std * gamma) + beta, per sample and channel
        scale = xp.repeat(
            inv_std.reshape(batch_size, groups), channels // groups, axis=1)
        scale *= gamma
        y = y.reshape(batch_size, channels, -1)
        y *= scale[:, :, None]
        y += beta[:, None]
        return y.reshape(x.shape).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        stats = self.stats
        dtype = stats.mean.dtype
        batch_size, channels = x.shape[:2]
        flat_shape = stats.mean.shape[:1] + (-1,)
        chan_shape = (batch_size, channels, -1)

        x2 = reshape.reshape(_cast(x, dtype), flat_shape)
        x_hat, = _standardize.Standardize(stats).apply((x2,))
        gx_hat, ggamma, gbeta = _standardize.ScaleShiftGrad(
            (0, 2), (1, channels, 1)).apply((
                reshape.reshape(x_hat, chan_shape), _cast(gamma, dtype),
                reshape.reshape(_cast(gy, dtype), chan_shape)))
        ret = []
        if 0 in indexes:
            gx, = _standardize.StandardizeGrad(stats, x_hat.array).apply(
                (x2, reshape.reshape(gx_hat, flat_shape)))
            ret.append(_cast(reshape.reshape(gx, x.shape), x.dtype))
        if 1 in indexes:
            ret.append(_cast(ggamma, gamma.dtype))
        if 2 in indexes:
            ret.append(_cast(gbeta, gamma.dtype))
        return ret


class _MulInvStd(_standardize.MulInvStd):

    """``(x, y) -> inv_std * y`` for rows ``x`` of shape ``(N, M)``.

    ``mean`` and ``inv_std`` are the statistics of the rows of ``x``, of
    shape ``(N,)``; ``inv_std`` is differentiated as the function of ``x``
    that it is, to any order.
    """

    def __init__(self, eps, mean, inv_std, dummy_gamma=None):
        super().__init__(_standardize.Statistics(
            mean[:, None], inv_std[:, None], (1,)))
        self.eps = eps
        self.dummy_gamma = dummy_gamma


def group_normalization(x, groups, gamma, beta, eps=1e-5):
    """Group normalization function.

    Splits the channels of each sample into ``groups`` groups, normalizes
    each group by its own mean and variance (over its channels and spatial
    positions), then scales and shifts each channel:

    .. math::
        y = \\gamma \\frac{x - \\mu_{n,g}}{\\sqrt{\\sigma^2_{n,g} +
            \\epsilon}} + \\beta.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Batch of shape
            ``(N, C, ...)``: the first axis is the batch, the second the
            channels, followed by any number of spatial axes.
        groups (int): The number of channel groups; it must divide ``C``.
        gamma (:class:`~chainer.Variable` or :ref:`ndarray`): Scaling
            parameter of shape ``(C,)``.
        beta (:class:`~chainer.Variable` or :ref:`ndarray`): Shifting
            parameter of shape ``(C,)``.
        eps (float): Added to the variances for numerical stability.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    See: `Group Normalization <https://arxiv.org/abs/1803.08494>`_

    .. seealso::

        :class:`~chainer.links.GroupNormalization`, which holds the
        parameters ``gamma`` and ``beta``.

    """
    return GroupNormalization(groups, eps).apply((x, gamma, beta))[0]
