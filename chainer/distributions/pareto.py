import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.array import where
from chainer.functions.math import exponential
from chainer import utils
from chainer.utils import cache


class Pareto(_distribution.Distribution):

    """Pareto distribution, ``f(x) = alpha scale^alpha / x^(alpha + 1)`` for
    ``x >= scale``.

    Samples are differentiable with respect to ``scale``.

    Args:
        scale (:class:`~chainer.Variable` or :ref:`ndarray`): Scale
            ``x_m``, the lower bound of the support.
        alpha (:class:`~chainer.Variable` or :ref:`ndarray`): Shape
            ``alpha``.
    """

    def __init__(self, scale, alpha):
        self.__scale = scale
        self.__alpha = alpha

    @cache.cached_property
    def scale(self):
        """~chainer.Variable: The scale ``x_m``, the lower bound of the
        support."""
        return chainer.as_variable(self.__scale)

    @cache.cached_property
    def alpha(self):
        """~chainer.Variable: The shape ``alpha``."""
        return chainer.as_variable(self.__alpha)

    @cache.cached_property
    def _log_scale(self):
        return exponential.log(self.scale)

    @cache.cached_property
    def _log_alpha(self):
        return exponential.log(self.alpha)

    @property
    def batch_shape(self):
        return self.scale.shape

    @property
    def event_shape(self):
        return ()

    @cache.cached_property
    def entropy(self):
        return - self._log_alpha + self._log_scale + 1. / self.alpha + 1.

    def log_prob(self, x):
        x = chainer.as_variable(x)
        logp = (self._log_alpha + self.alpha * self._log_scale
                - (self.alpha + 1) * exponential.log(x))
        xp = logp.xp
        inside = utils.force_array(x.array >= self.scale.array)
        return where.where(inside, logp, xp.array(-xp.inf, logp.dtype))

    @cache.cached_property
    def mean(self):
        mean = self.alpha * self.scale / (self.alpha - 1)
        xp = mean.xp
        return where.where(
            self.alpha.array > 1, mean, xp.array(xp.inf, mean.dtype))

    @property
    def params(self):
        return {'scale': self.scale, 'alpha': self.alpha}

    def sample_n(self, n):
        xp = backend.get_array_module(self.scale)
        eps = dist_utils._random_array(
            xp, 'pareto', (n,) + self.batch_shape, self.alpha.dtype,
            self.alpha.array)
        return self.scale * (eps + 1)

    @property
    def support(self):
        return '[scale, inf]'

    @cache.cached_property
    def variance(self):
        alpha = self.alpha
        var = self.scale ** 2 * alpha / (alpha - 1) ** 2 / (alpha - 2)
        xp = var.xp
        return where.where(
            alpha.array > 2, var, xp.array(xp.inf, var.dtype))


@_distribution.register_kl(Pareto, Pareto)
def _kl_pareto_pareto(dist1, dist2):
    kl = (dist2.alpha * (dist1._log_scale - dist2._log_scale)
          + dist1._log_alpha - dist2._log_alpha
          + (dist2.alpha - dist1.alpha) / dist1.alpha)
    xp = kl.xp
    return where.where(
        dist1.scale.array >= dist2.scale.array, kl,
        xp.array(xp.inf, kl.dtype))
