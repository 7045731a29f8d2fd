import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.math import exponential
from chainer.utils import cache


class Geometric(_distribution.Distribution):

    """Geometric distribution, ``P(x = k) = p (1-p)^(k-1)``, ``k >= 1``.

    Args:
        p (:class:`~chainer.Variable` or :ref:`ndarray`): Probability of
            success of each trial.
    """

    def __init__(self, p):
        self.__p = p

    @cache.cached_property
    def p(self):
        """~chainer.Variable: The probability of success of each trial."""
        return chainer.as_variable(self.__p)

    @property
    def batch_shape(self):
        return self.p.shape

    @property
    def event_shape(self):
        return ()

    def log_prob(self, x):
        return (x - 1) * exponential.log(1 - self.p) + exponential.log(self.p)

    @cache.cached_property
    def mean(self):
        return 1 / self.p

    @property
    def params(self):
        return {'p': self.p}

    def sample_n(self, n):
        xp = backend.get_array_module(self.p)
        eps = dist_utils._random_array(
            xp, 'geometric', (n,) + self.batch_shape, self.p.dtype,
            self.p.array)
        return chainer.Variable(eps)

    @property
    def support(self):
        return 'positive integer'

    @cache.cached_property
    def variance(self):
        return (1 - self.p) / self.p ** 2


@_distribution.register_kl(Geometric, Geometric)
def _kl_geometric_geometric(dist1, dist2):
    p1, p2 = dist1.p, dist2.p
    return ((1 / p1 - 1)
            * (exponential.log(1 - p1) - exponential.log(1 - p2))
            + exponential.log(p1) - exponential.log(p2))
