import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.functions.array import where
from chainer.functions.math import digamma
from chainer.functions.math import exponential
from chainer.functions.math import lgamma
from chainer import utils
from chainer.utils import cache


def _lbeta(a, b):
    """``log B(a, b)``, the log of the beta function."""
    return lgamma.lgamma(a) + lgamma.lgamma(b) - lgamma.lgamma(a + b)


class Beta(_distribution.Distribution):

    """Beta distribution on ``[0, 1]``.

    ``f(x) = x^(a-1) (1-x)^(b-1) / B(a, b)`` for ``a, b > 0``.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): ``alpha``.
        b (:class:`~chainer.Variable` or :ref:`ndarray`): ``beta``.
    """

    def __init__(self, a, b):
        self.__a = a
        self.__b = b

    @cache.cached_property
    def a(self):
        """~chainer.Variable: The first shape parameter, ``alpha``."""
        return chainer.as_variable(self.__a)

    @cache.cached_property
    def b(self):
        """~chainer.Variable: The second shape parameter, ``beta``."""
        return chainer.as_variable(self.__b)

    @cache.cached_property
    def _a_plus_b(self):
        return self.a + self.b

    @property
    def batch_shape(self):
        return self.a.shape

    @property
    def event_shape(self):
        return ()

    @cache.cached_property
    def entropy(self):
        a, b, total = self.a, self.b, self._a_plus_b
        return (
            _lbeta(a, b)
            - (a - 1) * digamma.digamma(a)
            - (b - 1) * digamma.digamma(b)
            + (total - 2) * digamma.digamma(total))

    def log_prob(self, x):
        x = chainer.as_variable(x)
        logp = ((self.a - 1) * exponential.log(x)
                + (self.b - 1) * exponential.log(1 - x)
                - _lbeta(self.a, self.b))
        xp = logp.xp
        inside = utils.force_array((x.array >= 0) & (x.array <= 1))
        return where.where(inside, logp, xp.array(-xp.inf, logp.dtype))

    @cache.cached_property
    def mean(self):
        return self.a / self._a_plus_b

    @property
    def params(self):
        return {'a': self.a, 'b': self.b}

    def sample_n(self, n):
        xp = backend.get_array_module(self.a)
        eps = xp.random.beta(
            self.a.array, self.b.array, size=(n,) + self.a.shape)
        return chainer.Variable(eps.astype(self.a.dtype))

    @property
    def support(self):
        return '[0, 1]'

    @cache.cached_property
    def variance(self):
        total = self._a_plus_b
        return self.a * self.b / total ** 2 / (total + 1)


@_distribution.register_kl(Beta, Beta)
def _kl_beta_beta(dist1, dist2):
    total1 = dist1._a_plus_b
    total2 = dist2._a_plus_b
    return (
        _lbeta(dist2.a, dist2.b) - _lbeta(dist1.a, dist1.b)
        + (dist1.a - dist2.a) * digamma.digamma(dist1.a)
        + (dist1.b - dist2.b) * digamma.digamma(dist1.b)
        + (total2 - total1) * digamma.digamma(total1))
