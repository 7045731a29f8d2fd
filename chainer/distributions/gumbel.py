import numpy

import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.math import exponential
from chainer.functions.math import lgamma
from chainer.utils import cache


#: The Euler-Mascheroni constant.
EULER = 0.57721566490153286060651209008240243104215933593992


class Gumbel(_distribution.Distribution):

    """Gumbel distribution (type-I extreme value, of maxima).

    ``f(x) = exp(-z - exp(-z)) / scale`` with ``z = (x - loc) / scale``.

    Args:
        loc (:class:`~chainer.Variable` or :ref:`ndarray`): Location ``mu``.
        scale (:class:`~chainer.Variable` or :ref:`ndarray`): Scale ``eta``.
    """

    def __init__(self, loc, scale):
        self.__loc = loc
        self.__scale = scale

    @cache.cached_property
    def loc(self):
        """~chainer.Variable: The location ``mu``, the mode."""
        return chainer.as_variable(self.__loc)

    @cache.cached_property
    def scale(self):
        """~chainer.Variable: The scale ``eta``."""
        return chainer.as_variable(self.__scale)

    @cache.cached_property
    def _log_scale(self):
        return exponential.log(self.scale)

    @property
    def batch_shape(self):
        return self.loc.shape

    @property
    def event_shape(self):
        return ()

    @cache.cached_property
    def entropy(self):
        return self._log_scale + (EULER + 1)

    def log_prob(self, x):
        z = (x - self.loc) / self.scale
        return - self._log_scale - z - exponential.exp(-z)

    @cache.cached_property
    def mean(self):
        return self.loc + EULER * self.scale

    @property
    def params(self):
        return {'loc': self.loc, 'scale': self.scale}

    def sample_n(self, n):
        xp = backend.get_array_module(self.loc)
        eps = dist_utils._random_array(
            xp, 'gumbel', (n,) + self.batch_shape, self.loc.dtype)
        return self.scale * eps + self.loc

    @property
    def support(self):
        return 'real'

    @cache.cached_property
    def variance(self):
        return (numpy.pi ** 2 / 6) * self.scale ** 2


@_distribution.register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(dist1, dist2):
    ratio = dist1.scale / dist2.scale
    shift = (dist1.loc - dist2.loc) / dist2.scale
    return (
        dist2._log_scale - dist1._log_scale
        + EULER * (ratio - 1.)
        + exponential.exp(lgamma.lgamma(ratio + 1.) - shift)
        - 1 + shift)
