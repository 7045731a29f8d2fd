import math

import numpy

import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.functions.math import exponential
from chainer import function_node
from chainer import utils
from chainer.utils import cache


class LaplaceCDF(function_node.FunctionNode):

    """CDF of the standard Laplace distribution.

    ``y = 1/2 - sign(x) expm1(-|x|) / 2``; its derivative, the density
    ``exp(-|x|) / 2``, is ``1/2 - |y - 1/2|``.
    """

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        y = 0.5 - 0.5 * xp.sign(x) * xp.expm1(-abs(x))
        return utils.force_array(y, x.dtype),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        y, = self.get_retained_outputs()
        return gy * (0.5 - abs(y - 0.5)),


class LaplaceICDF(function_node.FunctionNode):

    """Quantile function of the standard Laplace distribution.

    ``y = sign(h) log1p(-|h|)`` with ``h = 1 - 2x``; its derivative is
    ``1 / (1/2 - |x - 1/2|)``.
    """

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        h = 1 - 2 * x
        return utils.force_array(xp.sign(h) * xp.log1p(-abs(h)), x.dtype),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        x, = self.get_retained_inputs()
        return gy / (0.5 - abs(x - 0.5)),


def _laplace_cdf(x):
    y, = LaplaceCDF().apply((x,))
    return y


def _laplace_icdf(x):
    y, = LaplaceICDF().apply((x,))
    return y


class Laplace(_distribution.Distribution):

    """Laplace distribution, ``p(x) = exp(-|x - loc| / scale) / (2 scale)``.

    Args:
        loc (:class:`~chainer.Variable` or :ref:`ndarray`): Location ``mu``.
        scale (:class:`~chainer.Variable` or :ref:`ndarray`): Scale ``b``.
    """

    def __init__(self, loc, scale):
        self.__loc = loc
        self.__scale = scale

    @cache.cached_property
    def loc(self):
        """~chainer.Variable: The location ``mu``, the mean and median."""
        return chainer.as_variable(self.__loc)

    @cache.cached_property
    def scale(self):
        """~chainer.Variable: The scale ``b``."""
        return chainer.as_variable(self.__scale)

    @property
    def batch_shape(self):
        return self.loc.shape

    @property
    def event_shape(self):
        return ()

    def cdf(self, x):
        return _laplace_cdf((x - self.loc) / self.scale)

    @cache.cached_property
    def entropy(self):
        return 1. + exponential.log(2 * self.scale)

    def icdf(self, x):
        return self.loc + self.scale * _laplace_icdf(x)

    def log_prob(self, x):
        scale = self.scale
        return - exponential.log(2 * scale) - abs(x - self.loc) / scale

    @cache.cached_property
    def mean(self):
        return self.loc

    @cache.cached_property
    def mode(self):
        return self.loc

    @property
    def params(self):
        return {'loc': self.loc, 'scale': self.scale}

    def prob(self, x):
        scale = self.scale
        return 0.5 / scale * exponential.exp(- abs(x - self.loc) / scale)

    def sample_n(self, n):
        # Chainer draws the Laplace noise in float32 whatever the dtype.
        xp = backend.get_array_module(self.loc)
        eps = xp.random.laplace(
            size=(n,) + self.loc.shape).astype(numpy.float32)
        return self.scale * eps + self.loc

    @cache.cached_property
    def stddev(self):
        return math.sqrt(2) * self.scale

    @property
    def support(self):
        return 'real'

    @cache.cached_property
    def variance(self):
        return 2 * self.scale ** 2


@_distribution.register_kl(Laplace, Laplace)
def _kl_laplace_laplace(dist1, dist2):
    distance = abs(dist1.loc - dist2.loc)
    return (
        exponential.log(dist2.scale) - exponential.log(dist1.scale)
        + distance / dist2.scale
        + dist1.scale / dist2.scale * exponential.exp(-distance / dist1.scale)
        - 1)
