import math

import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.math import exponential
from chainer.functions.math import log_ndtr
from chainer.functions.math import ndtr
from chainer.functions.math import ndtri
from chainer.utils import argument
from chainer.utils import cache


#: Entropy of the standard normal, ``log(2 pi e) / 2``.
ENTROPYC = 0.5 * math.log(2 * math.pi * math.e)
#: Log-density of the standard normal at 0, ``-log(2 pi) / 2``.
LOGPROBC = - 0.5 * math.log(2 * math.pi)
#: Density of the standard normal at 0, ``1 / sqrt(2 pi)``.
PROBC = 1. / (2 * math.pi) ** 0.5


class Normal(_distribution.Distribution):

    """Normal (Gaussian) distribution of mean ``loc``, standard deviation
    ``scale``.

    ``p(x) = exp(-(x - mu)^2 / (2 sigma^2)) / sqrt(2 pi sigma^2)``. Samples
    are reparameterised (``loc + scale * eps``), so they are differentiable
    with respect to the parameters.

    Args:
        loc (:class:`~chainer.Variable` or :ref:`ndarray`): Mean ``mu``.
        scale (:class:`~chainer.Variable` or :ref:`ndarray`): Standard
            deviation ``sigma``. Give either ``scale`` or ``log_scale``,
            not both.
        log_scale (:class:`~chainer.Variable` or :ref:`ndarray`):
            ``log(sigma)``.

    .. admonition:: Example

        >>> import chainer.distributions as D
        >>> q = D.Normal(np.zeros(3, np.float32),
        ...              log_scale=np.zeros(3, np.float32))
        >>> p = D.Normal(np.zeros(3, np.float32), np.ones(3, np.float32))
        >>> chainer.kl_divergence(q, p).array
        array([0., 0., 0.], dtype=float32)
    """

    def __init__(self, loc, scale=None, **kwargs):
        log_scale, = argument.parse_kwargs(kwargs, ('log_scale', None))
        if (scale is None) == (log_scale is None):
            raise ValueError(
                'Either `scale` or `log_scale` (not both) must have a value.')
        self.__loc = loc
        self.__scale = scale
        self.__log_scale = log_scale

    @cache.cached_property
    def loc(self):
        """~chainer.Variable: The mean ``mu``."""
        return chainer.as_variable(self.__loc)

    @cache.cached_property
    def scale(self):
        """~chainer.Variable: The standard deviation ``sigma``, computed from
        ``log_scale`` when only that was given."""
        if self.__scale is None:
            return exponential.exp(self.log_scale)
        return chainer.as_variable(self.__scale)

    @cache.cached_property
    def log_scale(self):
        """~chainer.Variable: The logarithm of the standard deviation, computed
        from ``scale`` when only that was given."""
        if self.__log_scale is None:
            return exponential.log(self.scale)
        return chainer.as_variable(self.__log_scale)

    @property
    def batch_shape(self):
        return self.loc.shape

    @property
    def event_shape(self):
        return ()

    def cdf(self, x):
        return ndtr.ndtr((x - self.loc) / self.scale)

    @cache.cached_property
    def entropy(self):
        return self.log_scale + ENTROPYC

    def icdf(self, x):
        return self.loc + self.scale * ndtri.ndtri(x)

    def log_cdf(self, x):
        return log_ndtr.log_ndtr((x - self.loc) / self.scale)

    def log_prob(self, x):
        return (LOGPROBC - self.log_scale
                - 0.5 * (x - self.loc) ** 2 / self.variance)

    def log_survival_function(self, x):
        return log_ndtr.log_ndtr((self.loc - x) / self.scale)

    @cache.cached_property
    def mean(self):
        return self.loc

    @property
    def params(self):
        return {'loc': self.loc, 'scale': self.scale}

    def prob(self, x):
        return (PROBC / self.scale) * exponential.exp(
            -0.5 * (x - self.loc) ** 2 / self.variance)

    def sample_n(self, n):
        loc = self.loc
        xp = backend.get_array_module(loc)
        eps = dist_utils._random_array(
            xp, 'standard_normal', (n,) + loc.shape, loc.dtype)
        return loc + self.scale * eps

    @cache.cached_property
    def stddev(self):
        return self.scale

    @property
    def support(self):
        return 'real'

    def survival_function(self, x):
        return ndtr.ndtr((self.loc - x) / self.scale)

    @cache.cached_property
    def variance(self):
        return self.scale ** 2


@_distribution.register_kl(Normal, Normal)
def _kl_normal_normal(dist1, dist2):
    return (
        dist2.log_scale - dist1.log_scale
        + 0.5 * (dist1.variance + (dist1.loc - dist2.loc) ** 2)
        / dist2.variance
        - 0.5)
