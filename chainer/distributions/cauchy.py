import warnings

import numpy

import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.math import exponential
from chainer.functions.math import trigonometric
from chainer.utils import cache


def _cauchy_icdf(x):
    """Quantile function of the standard Cauchy, ``tan(pi (x - 1/2))``."""
    x = chainer.as_variable(x)
    return trigonometric.tan((x - 0.5) * numpy.pi)


class Cauchy(_distribution.Distribution):

    """Cauchy distribution.

    ``p(x) = scale / (pi ((x - loc)^2 + scale^2))``. Its mean and variance
    are undefined: they are NaN, with a :class:`RuntimeWarning`.

    Args:
        loc (:class:`~chainer.Variable` or :ref:`ndarray`): Location
            ``x_0``.
        scale (:class:`~chainer.Variable` or :ref:`ndarray`): Scale
            ``gamma``.
    """

    def __init__(self, loc, scale):
        self.__loc = loc
        self.__scale = scale

    @cache.cached_property
    def loc(self):
        """~chainer.Variable: The location ``x_0``, the median."""
        return chainer.as_variable(self.__loc)

    @cache.cached_property
    def scale(self):
        """~chainer.Variable: The scale ``gamma``, the half width at half
        maximum."""
        return chainer.as_variable(self.__scale)

    @property
    def batch_shape(self):
        return self.loc.shape

    @property
    def event_shape(self):
        return ()

    def cdf(self, x):
        return (trigonometric.arctan((x - self.loc) / self.scale) / numpy.pi
                + 0.5)

    @cache.cached_property
    def entropy(self):
        return exponential.log(4 * numpy.pi * self.scale)

    def icdf(self, x):
        return self.loc + self.scale * _cauchy_icdf(x)

    def log_prob(self, x):
        return (exponential.log(self.scale) - numpy.log(numpy.pi)
                - exponential.log((x - self.loc) ** 2 + self.scale ** 2))

    def _undefined(self, name):
        warnings.warn(
            '{} of the cauchy distribution is undefined.'.format(name),
            RuntimeWarning)
        xp = backend.get_array_module(self.loc)
        return chainer.as_variable(xp.full_like(self.loc.array, xp.nan))

    @cache.cached_property
    def mean(self):
        return self._undefined('Mean')

    @property
    def params(self):
        return {'loc': self.loc, 'scale': self.scale}

    def sample_n(self, n):
        xp = backend.get_array_module(self.loc)
        eps = dist_utils._random_array(
            xp, 'standard_cauchy', (n,) + self.loc.shape, self.loc.dtype)
        return self.scale * eps + self.loc

    @property
    def support(self):
        return 'real'

    @cache.cached_property
    def variance(self):
        return self._undefined('Variance')
