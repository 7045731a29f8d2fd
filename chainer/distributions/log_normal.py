import math

import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.math import exponential
from chainer.utils import cache


#: Log-density of the standard normal at 0, ``-log(2 pi) / 2``.
LOGPROBC = - 0.5 * math.log(2 * math.pi)


class LogNormal(_distribution.Distribution):

    """Log-normal distribution: ``log(x)`` is normal of mean ``mu``, standard
    deviation ``sigma``.

    ``p(x) = exp(-(log(x) - mu)^2 / (2 sigma^2)) / (x sigma sqrt(2 pi))``.
    Samples are differentiable with respect to both parameters.

    Args:
        mu (:class:`~chainer.Variable` or :ref:`ndarray`): ``mu``.
        sigma (:class:`~chainer.Variable` or :ref:`ndarray`): ``sigma``.
    """

    def __init__(self, mu, sigma):
        self.__mu = mu
        self.__sigma = sigma

    @cache.cached_property
    def mu(self):
        """~chainer.Variable: The mean of ``log(x)``."""
        return chainer.as_variable(self.__mu)

    @cache.cached_property
    def sigma(self):
        """~chainer.Variable: The standard deviation of ``log(x)``."""
        return chainer.as_variable(self.__sigma)

    @cache.cached_property
    def _log_sigma(self):
        return exponential.log(self.sigma)

    @property
    def batch_shape(self):
        return self.mu.shape

    @property
    def event_shape(self):
        return ()

    @cache.cached_property
    def entropy(self):
        return 0.5 - LOGPROBC + self._log_sigma + self.mu

    def log_prob(self, x):
        logx = exponential.log(x)
        return (LOGPROBC - self._log_sigma - logx
                - 0.5 * (logx - self.mu) ** 2 / self.sigma ** 2)

    @cache.cached_property
    def mean(self):
        return exponential.exp(self.mu + 0.5 * self.sigma ** 2)

    @property
    def params(self):
        return {'mu': self.mu, 'sigma': self.sigma}

    def sample_n(self, n):
        xp = backend.get_array_module(self.mu)
        eps = dist_utils._random_array(
            xp, 'standard_normal', (n,) + self.mu.shape, self.mu.dtype)
        return exponential.exp(self.sigma * eps + self.mu)

    @property
    def support(self):
        return 'positive'

    @cache.cached_property
    def variance(self):
        sigma2 = self.sigma ** 2
        return (exponential.exp(2 * self.mu + sigma2)
                * (exponential.exp(sigma2) - 1))


@_distribution.register_kl(LogNormal, LogNormal)
def _kl_log_normal_log_normal(dist1, dist2):
    return (
        0.5 * ((dist1.mu - dist2.mu) ** 2 + dist1.sigma ** 2)
        / dist2.sigma ** 2
        - 0.5 + dist2._log_sigma - dist1._log_sigma)
