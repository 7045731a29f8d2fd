import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.array import where
from chainer.functions.math import exponential
from chainer.functions.math import exponential_m1
from chainer.functions.math import logarithm_1p
from chainer.utils import cache


class Exponential(_distribution.Distribution):

    """Exponential distribution, ``p(x) = lam exp(-lam x)`` for ``x >= 0``.

    Args:
        lam (:class:`~chainer.Variable` or :ref:`ndarray`): Rate
            ``lambda``.
    """

    def __init__(self, lam):
        self.__lam = lam

    @cache.cached_property
    def lam(self):
        """~chainer.Variable: The rate ``lambda``, the inverse of the mean."""
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

    def cdf(self, x):
        return - exponential_m1.expm1(-self.lam * x)

    @cache.cached_property
    def entropy(self):
        return 1 - self._log_lam

    def icdf(self, x):
        x = chainer.as_variable(x)
        return -1 / self.lam * logarithm_1p.log1p(-x)

    def log_prob(self, x):
        logp = self._log_lam - self.lam * x
        xp = logp.xp
        if isinstance(x, chainer.Variable):
            x = x.array
        minus_inf = xp.full_like(logp.array, -xp.inf)
        return where.where(xp.asarray(x >= 0), logp, minus_inf)

    @cache.cached_property
    def mean(self):
        return 1 / self.lam

    @property
    def params(self):
        return {'lam': self.lam}

    def sample_n(self, n):
        xp = backend.get_array_module(self.lam)
        eps = dist_utils._random_array(
            xp, 'standard_exponential', (n,) + self.lam.shape,
            self.lam.dtype)
        return eps / self.lam

    @property
    def support(self):
        return 'positive'

    @cache.cached_property
    def variance(self):
        return self.mean ** 2


@_distribution.register_kl(Exponential, Exponential)
def _kl_exponential_exponential(dist1, dist2):
    return dist1._log_lam - dist2._log_lam + dist2.lam / dist1.lam - 1.
