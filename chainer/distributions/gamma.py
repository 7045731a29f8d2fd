import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.array import broadcast
from chainer.functions.array import where
from chainer.functions.math import digamma
from chainer.functions.math import exponential
from chainer.functions.math import lgamma
from chainer.utils import cache


class Gamma(_distribution.Distribution):

    """Gamma distribution of shape ``k`` and scale ``theta``.

    ``p(x) = x^(k-1) exp(-x/theta) / (Gamma(k) theta^k)`` for ``x >= 0``.
    Samples are differentiable with respect to ``theta``.

    Args:
        k (:class:`~chainer.Variable` or :ref:`ndarray`): Shape.
        theta (:class:`~chainer.Variable` or :ref:`ndarray`): Scale.
    """

    def __init__(self, k, theta):
        self.__k = k
        self.__theta = theta

    @cache.cached_property
    def k(self):
        """~chainer.Variable: The shape parameter."""
        return chainer.as_variable(self.__k)

    @cache.cached_property
    def theta(self):
        """~chainer.Variable: The scale parameter."""
        return chainer.as_variable(self.__theta)

    @property
    def batch_shape(self):
        return self.k.shape

    @property
    def event_shape(self):
        return ()

    @cache.cached_property
    def entropy(self):
        k = self.k
        return (k + exponential.log(self.theta) + lgamma.lgamma(k)
                + (1 - k) * digamma.digamma(k))

    def log_prob(self, x):
        k, theta = self.k, self.theta
        logp = (- lgamma.lgamma(k) - k * exponential.log(theta)
                + (k - 1) * exponential.log(x) - x / theta)
        xp = logp.xp
        if isinstance(x, chainer.Variable):
            x = x.array
        minus_inf = xp.full_like(logp.array, -xp.inf)
        return where.where(xp.asarray(x >= 0), logp, minus_inf)

    @cache.cached_property
    def mean(self):
        return self.k * self.theta

    @property
    def params(self):
        return {'k': self.k, 'theta': self.theta}

    def sample_n(self, n):
        xp = backend.get_array_module(self.k)
        eps = dist_utils._random_array(
            xp, 'gamma', (n,) + self.batch_shape, self.k.dtype, self.k.array)
        return broadcast.broadcast_to(self.theta, eps.shape) * eps

    @property
    def support(self):
        return 'positive'

    @cache.cached_property
    def variance(self):
        return self.mean * self.theta


@_distribution.register_kl(Gamma, Gamma)
def _kl_gamma_gamma(dist1, dist2):
    k1, k2 = dist1.k, dist2.k
    theta1, theta2 = dist1.theta, dist2.theta
    return (
        (k1 - k2) * digamma.digamma(k1)
        - (lgamma.lgamma(k1) - lgamma.lgamma(k2))
        + k2 * (exponential.log(theta2) - exponential.log(theta1))
        + k1 * (theta1 / theta2 - 1))
