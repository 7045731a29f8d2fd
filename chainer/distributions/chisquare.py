import numpy

import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.math import digamma
from chainer.functions.math import exponential
from chainer.functions.math import lgamma
from chainer.utils import cache


class Chisquare(_distribution.Distribution):

    """Chi-square distribution with ``k`` degrees of freedom.

    ``p(x) = x^(k/2-1) exp(-x/2) / (2^(k/2) Gamma(k/2))`` for ``x > 0``.

    Args:
        k (:class:`~chainer.Variable` or :ref:`ndarray`): Degrees of
            freedom.
    """

    def __init__(self, k):
        self.__k = k

    @cache.cached_property
    def k(self):
        """~chainer.Variable: The degrees of freedom."""
        return chainer.as_variable(self.__k)

    @cache.cached_property
    def _half_k(self):
        return 0.5 * self.k

    @property
    def batch_shape(self):
        return self.k.shape

    @property
    def event_shape(self):
        return ()

    @cache.cached_property
    def entropy(self):
        half_k = self._half_k
        return (half_k + numpy.log(2.) + lgamma.lgamma(half_k)
                + (1 - half_k) * digamma.digamma(half_k))

    def log_prob(self, x):
        half_k = self._half_k
        return (- lgamma.lgamma(half_k) - half_k * numpy.log(2.)
                + (half_k - 1) * exponential.log(x) - 0.5 * x)

    @cache.cached_property
    def mean(self):
        return self.k

    @property
    def params(self):
        return {'k': self.k}

    def sample_n(self, n):
        xp = backend.get_array_module(self.k)
        eps = dist_utils._random_array(
            xp, 'chisquare', (n,) + self.k.shape, self.k.dtype, self.k.array)
        return chainer.Variable(eps)

    @property
    def support(self):
        return 'positive'

    @cache.cached_property
    def variance(self):
        return 2 * self.k
