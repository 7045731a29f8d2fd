import numpy

import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.math import exponential
from chainer.functions.math import lgamma
from chainer import utils
from chainer.utils import cache


class Poisson(_distribution.Distribution):

    """Poisson distribution, ``P(x) = lam^x exp(-lam) / x!``.

    Args:
        lam (:class:`~chainer.Variable` or :ref:`ndarray`): Rate
            ``lambda``.
    """

    def __init__(self, lam):
        self.__lam = lam

    @cache.cached_property
    def lam(self):
        """~chainer.Variable: The rate ``lambda``, the mean and the variance.
        """
        return chainer.as_variable(self.__lam)

    @cache.cached_property
    def _log_lam(self):
        return exponential.log(self.lam)

    @property
    def batch_shape(self):
        return self.lam.shape

    @property
    def event_shape(self):
        return ()

    def log_prob(self, x):
        if isinstance(x, chainer.Variable):
            x = x.array
        dtype = self.lam.dtype
        x = utils.force_array(x.astype(dtype))
        x_plus_1 = utils.force_array((x + 1).astype(dtype))
        return x * self._log_lam - lgamma.lgamma(x_plus_1) - self.lam

    @cache.cached_property
    def mean(self):
        return self.lam

    @property
    def params(self):
        return {'lam': self.lam}

    def sample_n(self, n):
        # Chainer gives float32 counts whatever the dtype of the rate.
        xp = backend.get_array_module(self.lam)
        eps = dist_utils._random_array(
            xp, 'poisson', (n,) + self.batch_shape, numpy.float32,
            self.lam.array)
        return chainer.Variable(eps)

    @property
    def support(self):
        return 'non negative integer'

    @cache.cached_property
    def variance(self):
        return self.lam


@_distribution.register_kl(Poisson, Poisson)
def _kl_poisson_poisson(dist1, dist2):
    return (dist1.lam * (dist1._log_lam - dist2._log_lam)
            - dist1.lam + dist2.lam)
