import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.array import broadcast
from chainer.functions.array import where
from chainer.functions.math import clip
from chainer.functions.math import exponential
from chainer.functions.math import sqrt
from chainer import utils
from chainer.utils import argument
from chainer.utils import cache


class Uniform(_distribution.Distribution):

    """Uniform distribution on ``[low, high]``.

    It is given either by its bounds or by ``loc = low`` and
    ``scale = high - low``, as keyword arguments. Samples are
    differentiable with respect to the parameters.

    Args:
        low (:class:`~chainer.Variable` or :ref:`ndarray`): Lower bound.
        high (:class:`~chainer.Variable` or :ref:`ndarray`): Upper bound.
        loc (:class:`~chainer.Variable` or :ref:`ndarray`): Lower bound,
            with ``scale`` instead of ``low`` and ``high``.
        scale (:class:`~chainer.Variable` or :ref:`ndarray`): Width of the
            interval.
    """

    def __init__(self, **kwargs):
        low, high, loc, scale = argument.parse_kwargs(
            kwargs, ('low', None), ('high', None), ('loc', None),
            ('scale', None))
        self._use_low_high = low is not None and high is not None
        self._use_loc_scale = loc is not None and scale is not None
        if self._use_low_high == self._use_loc_scale:
            raise ValueError(
                'Either `low, high` or `loc, scale` (not both) must have a '
                'value.')
        self.__low = low
        self.__high = high
        self.__loc = loc
        self.__scale = scale

    @cache.cached_property
    def low(self):
        """~chainer.Variable: The lower bound, ``loc`` when the distribution
        was given ``loc`` and ``scale``."""
        if self._use_low_high:
            return chainer.as_variable(self.__low)
        return self.loc

    @cache.cached_property
    def high(self):
        """~chainer.Variable: The upper bound, ``loc + scale`` when the
        distribution was given ``loc`` and ``scale``."""
        if self._use_low_high:
            return chainer.as_variable(self.__high)
        return self.loc + self.scale

    @cache.cached_property
    def loc(self):
        """~chainer.Variable: The lower bound, ``low`` when the distribution
        was given ``low`` and ``high``."""
        if self._use_loc_scale:
            return chainer.as_variable(self.__loc)
        return self.low

    @cache.cached_property
    def scale(self):
        """~chainer.Variable: The width of the interval, ``high - low`` when
        the distribution was given ``low`` and ``high``."""
        if self._use_loc_scale:
            return chainer.as_variable(self.__scale)
        return self.high - self.low

    @property
    def batch_shape(self):
        return self.low.shape

    @property
    def event_shape(self):
        return ()

    def cdf(self, x):
        return clip.clip((x - self.loc) / self.scale, 0., 1.)

    @cache.cached_property
    def entropy(self):
        return exponential.log(self.scale)

    def icdf(self, x):
        return x * self.scale + self.loc

    def log_prob(self, x):
        x = chainer.as_variable(x)
        xp = backend.get_array_module(x)
        logp = broadcast.broadcast_to(-exponential.log(self.scale), x.shape)
        inside = utils.force_array(
            (x.array >= self.low.array) & (x.array <= self.high.array))
        return where.where(inside, logp, xp.array(-xp.inf, logp.dtype))

    @cache.cached_property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def params(self):
        if self._use_low_high:
            return {'low': self.low, 'high': self.high}
        return {'loc': self.loc, 'scale': self.scale}

    def sample_n(self, n):
        xp = backend.get_array_module(self.low)
        eps = dist_utils._random_array(
            xp, 'uniform', (n,) + self.low.shape, self.low.dtype, 0, 1)
        return self.icdf(eps)

    @cache.cached_property
    def stddev(self):
        return sqrt.sqrt(self.variance)

    @property
    def support(self):
        return '[low, high]'

    @cache.cached_property
    def variance(self):
        return self.scale ** 2 / 12


@_distribution.register_kl(Uniform, Uniform)
def _kl_uniform_uniform(dist1, dist2):
    xp = backend.get_array_module(dist1.low)
    outside = ((dist1.high.array > dist2.high.array)
               | (dist1.low.array < dist2.low.array))
    kl = (exponential.log(dist2.high - dist2.low)
          - exponential.log(dist1.high - dist1.low))
    return where.where(outside, xp.array(xp.inf, kl.dtype), kl)
