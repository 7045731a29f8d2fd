"""Initializers that draw from normal distributions."""

import numpy

from chainer import backend
from chainer import initializer
from chainer.utils import argument


class Normal(initializer.Initializer):
    """Draws from a normal distribution of mean 0.

    Args:
        scale (float): Spread (standard deviation) of the values drawn.
        dtype: Data type of the arrays this initializer fills.
        rng (keyword only): A random number generator with a ``normal``
            method (``numpy.random.RandomState`` or CuPy's); the global
            generator of the array's module if omitted.
    """

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        self.rng, = argument.parse_kwargs(kwargs, ('rng', None))
        super().__init__(dtype)

    def __call__(self, array):
        if self.dtype is not None:
            assert array.dtype == self.dtype
        rng = self.rng
        if rng is None:
            rng = backend.get_array_module(array).random
        array[...] = rng.normal(loc=0.0, scale=self.scale, size=array.shape)


class _FanScaledNormal(initializer.Initializer):

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        self.rng, = argument.parse_kwargs(kwargs, ('rng', None))
        super().__init__(dtype)

    def _fan_factor(self, fan_in, fan_out):
        raise NotImplementedError()

    def __call__(self, array):
        if self.dtype is not None:
            assert array.dtype == self.dtype
        fan_in, fan_out = initializer.get_fans(array.shape)
        scale = self.scale * numpy.sqrt(self._fan_factor(fan_in, fan_out))
        Normal(scale, rng=self.rng)(array)


class LeCunNormal(_FanScaledNormal):
    """Normal with standard deviation ``scale * sqrt(1 / fan_in)``.

    Args:
        scale (float): Multiplier of the standard deviation.
        dtype: Data type of the arrays this initializer fills.
        rng (keyword only): Random number generator (see :class:`Normal`).
    """

    def _fan_factor(self, fan_in, fan_out):
        return 1. / fan_in


class GlorotNormal(_FanScaledNormal):
    """Normal with deviation ``scale * sqrt(2 / (fan_in + fan_out))``.

    Args:
        scale (float): Multiplier of the standard deviation.
        dtype: Data type of the arrays this initializer fills.
        rng (keyword only): Random number generator (see :class:`Normal`).
    """

    def _fan_factor(self, fan_in, fan_out):
        return 2. / (fan_in + fan_out)


class HeNormal(_FanScaledNormal):
    """Normal with standard deviation ``scale * sqrt(2 / fan)``.

    Args:
        scale (float): Multiplier of the standard deviation.
        dtype: Data type of the arrays this initializer fills.
        fan_option (str): ``'fan_in'`` or ``'fan_out'``: which fan to use.
        rng (keyword only): Random number generator (see :class:`Normal`).
    """

    def __init__(self, scale=1.0, dtype=None, fan_option='fan_in',
                 **kwargs):
        if fan_option not in ('fan_in', 'fan_out'):
            raise ValueError(
                'fan_option should be either \'fan_in\' or \'fan_out\'.')
        self.fan_option = fan_option
        super().__init__(scale, dtype, **kwargs)

    def _fan_factor(self, fan_in, fan_out):
        fan = fan_in if self.fan_option == 'fan_in' else fan_out
        return 2. / fan
