import numpy

import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.functions.array import expand_dims
from chainer.functions.math import digamma
from chainer.functions.math import exponential
from chainer.functions.math import lgamma
from chainer.functions.math import sum as sum_mod
from chainer.utils import cache


def _lbeta(alpha):
    """Log of the multivariate beta function over the last axis."""
    return (sum_mod.sum(lgamma.lgamma(alpha), axis=-1)
            - lgamma.lgamma(sum_mod.sum(alpha, axis=-1)))


class Dirichlet(_distribution.Distribution):

    """Dirichlet distribution on the probability simplex.

    ``p(x) = prod_i x_i^(alpha_i - 1) / B(alpha)``; the last axis of
    ``alpha`` is the event axis.

    Args:
        alpha (:class:`~chainer.Variable` or :ref:`ndarray`): Concentration
            parameters.
    """

    def __init__(self, alpha):
        self.__alpha = alpha

    @cache.cached_property
    def alpha(self):
        """~chainer.Variable: The concentration parameters (the last axis is
        the event axis)."""
        return chainer.as_variable(self.__alpha)

    @cache.cached_property
    def alpha0(self):
        """~chainer.Variable: The sum of :attr:`alpha` over the event axis."""
        return sum_mod.sum(self.alpha, axis=-1)

    @property
    def batch_shape(self):
        return self.alpha.shape[:-1]

    @property
    def event_shape(self):
        return self.alpha.shape[-1:]

    @cache.cached_property
    def entropy(self):
        alpha, alpha0 = self.alpha, self.alpha0
        k, = self.event_shape
        return (_lbeta(alpha)
                + (alpha0 - k) * digamma.digamma(alpha0)
                - sum_mod.sum((alpha - 1) * digamma.digamma(alpha), axis=-1))

    def log_prob(self, x):
        return (sum_mod.sum((self.alpha - 1) * exponential.log(x), axis=-1)
                - _lbeta(self.alpha))

    @cache.cached_property
    def mean(self):
        return self.alpha / expand_dims.expand_dims(self.alpha0, axis=-1)

    @property
    def params(self):
        return {'alpha': self.alpha}

    def sample_n(self, n):
        # Chainer draws each distribution of the batch in turn, in float32.
        xp = backend.get_array_module(self.alpha)
        k, = self.event_shape
        rows = self.alpha.array.reshape(-1, k)
        eps = xp.stack([
            xp.random.dirichlet(row, size=(n,)).astype(numpy.float32)
            for row in rows], axis=1)
        return chainer.Variable(eps.reshape((n,) + self.alpha.shape))

    @property
    def support(self):
        return '[0, 1]'

    @cache.cached_property
    def variance(self):
        alpha = self.alpha
        alpha0 = expand_dims.expand_dims(self.alpha0, axis=-1)
        return alpha * (alpha0 - alpha) / alpha0 ** 2 / (alpha0 + 1)


@_distribution.register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(dist1, dist2):
    digamma_alpha0 = expand_dims.expand_dims(
        digamma.digamma(dist1.alpha0), axis=-1)
    return (
        _lbeta(dist2.alpha) - _lbeta(dist1.alpha)
        + sum_mod.sum(
            (dist1.alpha - dist2.alpha)
            * (digamma.digamma(dist1.alpha) - digamma_alpha0),
            axis=-1))
