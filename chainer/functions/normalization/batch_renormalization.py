import warnings

from chainer import backend
from chainer import configuration
from chainer import function
from chainer.functions.normalization import _standardize
from chainer.functions.normalization import batch_normalization
from chainer import utils
from chainer.utils import type_check


class BatchRenormalizationFunction(function.Function):

    """Batch renormalization, an old-style function (first order only).

    The batch statistics are corrected towards the running statistics by
    ``r = clip(std / running_std, 1 / rmax, rmax)`` and
    ``d = clip((mean - running_mean) / running_std, -dmax, dmax)``, which
    are treated as constants in backward. With ``update_statistics``, the
    running statistics ``mean`` and ``var`` are updated in place.
    """

    def __init__(self, eps=2e-5, mean=None, var=None, decay=0.9,
                 rmax=1, dmax=0, update_statistics=True):
        self._running_mean = mean
        self._running_var = var
        self.rmax = rmax
        self.dmax = dmax
        self.r = None
        self.update_statistics = update_statistics
        self.eps = eps
        self.decay = decay

    def _warn_accessing_property(self):
        warnings.warn(
            'The attributes of BatchRenormalizationFunction '
            'are deprecated. '
            'Consider setting update_statistics=True to '
            'batch_renormalization to update running statistics.',
            DeprecationWarning)

    @property
    def running_mean(self):
        self._warn_accessing_property()
        return self._running_mean

    @property
    def running_var(self):
        self._warn_accessing_property()
        return self._running_var

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        gamma_ndim = type_check.eval(gamma_type.ndim)
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= gamma_type.ndim + 1,
            gamma_type.dtype.kind == 'f',
            gamma_type.dtype == beta_type.dtype,
            gamma_type.shape == beta_type.shape,
        )
        type_check.expect(
            x_type.shape[1:1 + gamma_ndim] == gamma_type.shape)

    def forward(self, inputs):
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        axis = (0,) + tuple(range(gamma.ndim + 1, x.ndim))
        stat_shape = batch_normalization._stat_shape(x.shape, axis)
        dtype = batch_normalization._compute_dtype(x.dtype, gamma.dtype)
        self._axis = axis

        mean = x.mean(axis=axis, dtype=dtype)
        x_mu = xp.subtract(x, mean.reshape(stat_shape), dtype=dtype)
        var = _standardize.sum_of_products(x_mu, x_mu, axis)
        var *= dtype.type(gamma.size / max(x.size, 1))
        std = xp.sqrt(var + self.eps)
        running_mean = self._running_mean
        running_std = xp.sqrt(self._running_var + self.eps, dtype=dtype)
        self.r = xp.clip(std / running_std, 1. / self.rmax, self.rmax)
        d = xp.clip((mean - running_mean) / running_std,
                    -self.dmax, self.dmax)

        # x_hat = (x - mean) / std; y = gamma * (x_hat * r + d) + beta
        x_mu /= std.reshape(stat_shape)
        self.x_hat = x_mu
        self.std = std
        scale = gamma * self.r
        shift = gamma * d + beta
        y = x_mu * scale.reshape(stat_shape)
        y += shift.reshape(stat_shape)
        y = y.astype(x.dtype, copy=False)
        self._renorm_shift = d

        if self.update_statistics:
            decay = self.decay
            m = x.size // gamma.size
            adjust = m / max(m - 1., 1.)  # unbiased variance
            running_mean *= decay
            running_mean += (1 - decay) * mean
            running_var = self._running_var
            running_var *= decay
            running_var += (1 - decay) * adjust * var
        return y,

    def backward(self, inputs, grad_outputs):
        x, gamma, _ = inputs
        gy, = grad_outputs
        xp = backend.get_array_module(x)
        axis = self._axis
        x_hat = self.x_hat
        stat_shape = batch_normalization._stat_shape(x.shape, axis)
        dtype = x_hat.dtype
        inv_m = dtype.type(gamma.size / max(x.size, 1))

        gbeta = gy.sum(axis=axis, dtype=dtype)
        g_x_hat = _standardize.sum_of_products(gy, x_hat, axis)
        ggamma = self.r * g_x_hat + self._renorm_shift * gbeta
        # r and d are constants: y is affine in the standardized x.
        coeff = (self.r * gamma / self.std).reshape(stat_shape)
        gx = x_hat * (g_x_hat * inv_m).reshape(stat_shape)
        gx += (gbeta * inv_m).reshape(stat_shape)
        xp.subtract(gy, gx, out=gx)
        gx *= coeff
        gx = gx.astype(x.dtype, copy=False)
        return (gx, utils.force_array(ggamma, gamma.dtype),
                utils.force_array(gbeta, gamma.dtype))


def batch_renormalization(x, gamma, beta, rmax, dmax, eps=2e-5,
                          running_mean=None, running_var=None, decay=0.9,
                          update_statistics=False):
    """Batch renormalization function.

    A variant of batch normalization whose outputs depend less on the
    other examples of the batch: the batch statistics are corrected
    towards the running statistics,

    .. math::
        y = \\gamma \\left(r \\frac{x - \\mu_B}{\\sigma_B} + d\\right)
            + \\beta, \\quad
        r = \\mathrm{clip}\\left(\\frac{\\sigma_B}{\\sigma},
            \\frac{1}{r_{max}}, r_{max}\\right), \\quad
        d = \\mathrm{clip}\\left(\\frac{\\mu_B - \\mu}{\\sigma},
            -d_{max}, d_{max}\\right),

    where :math:`\\mu_B, \\sigma_B` are the statistics of the batch and
    :math:`\\mu, \\sigma` the running ones (standard deviations include
    ``eps``). :math:`r` and :math:`d` are constants for backprop.

    .. note::

        Unlike :func:`~chainer.functions.batch_normalization`, the running
        statistics are not updated by default; pass
        ``update_statistics=True`` to update them in place.

    .. note::

        As in :func:`~chainer.functions.batch_normalization`, the running
        average is kept of the variance (not of the standard deviation),
        and it is updated with the unbiased variance of the batch.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        gamma (:class:`~chainer.Variable` or :ref:`ndarray`): Scaling
            parameter.
        beta (:class:`~chainer.Variable` or :ref:`ndarray`): Shifting
            parameter.
        rmax (float): Upper bound of :math:`r`; its inverse is the lower
            bound.
        dmax (float): Bound of the absolute value of :math:`d`.
        eps (float): Added to the variances for numerical stability.
        running_mean (:ref:`ndarray`): Required moving average of the
            batch means, updated in place.
        running_var (:ref:`ndarray`): Required moving average of the
            batch variances, updated in place.
        decay (float): Decay rate of the running averages.
        update_statistics (bool): Whether to update the running statistics
            in place.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    See: `Batch Renormalization: Towards Reducing Minibatch Dependence in
    Batch-Normalized Models <https://arxiv.org/abs/1702.03275>`_

    .. seealso::

        :class:`~chainer.links.BatchRenormalization`, which holds the
        parameters and the running statistics.

    """
    if running_mean is None:
        raise TypeError('running_mean is required')
    if running_var is None:
        raise TypeError('running_var is required')
    return BatchRenormalizationFunction(
        eps, running_mean, running_var, decay, rmax, dmax, update_statistics
    )(x, gamma, beta)


def fixed_batch_renormalization(x, gamma, beta, mean, var, eps=2e-5):
    """Batch renormalization with fixed statistics (deprecated).

    In test mode batch renormalization is batch normalization with the
    running statistics: use
    :func:`~chainer.functions.fixed_batch_normalization` instead.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        gamma (:class:`~chainer.Variable` or :ref:`ndarray`): Scaling
            parameter.
        beta (:class:`~chainer.Variable` or :ref:`ndarray`): Shifting
            parameter.
        mean (:class:`~chainer.Variable` or :ref:`ndarray`): Mean.
        var (:class:`~chainer.Variable` or :ref:`ndarray`): Variance.
        eps (float): Added to the variance for numerical stability.

    Returns:
        ~chainer.Variable: Output variable.

    """
    warnings.warn(
        'fixed_batch_renormalization is deprecated. '
        'Use fixed_batch_normalization instead.',
        DeprecationWarning)
    with configuration.using_config('train', False):
        return batch_normalization.fixed_batch_normalization(
            x, gamma, beta, mean, var, eps)
