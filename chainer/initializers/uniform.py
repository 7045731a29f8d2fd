"""Initializers that draw from uniform distributions."""

import numpy

from chainer import backend
from chainer import initializer
from chainer.utils import argument


class Uniform(initializer.Initializer):
    """Draws each element from the uniform distribution on
    ``[-scale, scale]``.

    Args:
        scale (float): Half-width of the interval.
        dtype: Data type of the arrays this initializer fills.
        rng (keyword only): A random number generator with a ``uniform``
            method (``numpy.random.RandomState`` or CuPy's); the global
            generator of the array's module if omitted.
    """

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        self.rng, = argument.parse_kwargs(kwargs, ('rng', None))
        super().__init__(dtype)

    def __call__(self, array):
        if self.dtype is not None:
            assert array.dtype == self.dtype, \
                '{} != {}'.format(array.dtype, self.dtype)
        if self.rng is None:
            xp = backend.get_array_module(array)
            array[...] = xp.random.uniform(
                low=-self.scale, high=self.scale, size=array.shape)
        else:
            values = self.rng.uniform(
                low=-self.scale, high=self.scale, size=array.shape)
            backend.copyto(array, values.astype(array.dtype, copy=False))


class _FanScaledUniform(initializer.Initializer):

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        self.rng, = argument.parse_kwargs(kwargs, ('rng', None))
        super().__init__(dtype)

    def _fan_factor(self, fan_in, fan_out):
        raise NotImplementedError()

    def __call__(self, array):
        if self.dtype is not None:
            assert array.dtype == self.dtype, \
                '{} != {}'.format(array.dtype, self.dtype)
        fan_in, fan_out = initializer.get_fans(array.shape)
        scale = self.scale * numpy.sqrt(self._fan_factor(fan_in, fan_out))
        Uniform(scale, rng=self.rng)(array)


class LeCunUniform(_FanScaledUniform):
    """Uniform on ``[-s, s]`` with ``s = scale * sqrt(3 / fan_in)``.

    Args:
        scale (float): Multiplier of the half-width.
        dtype: Data type of the arrays this initializer fills.
        rng (keyword only): Random number generator (see :class:`Uniform`).
    """

    def _fan_factor(self, fan_in, fan_out):
        return 3. / fan_in


class GlorotUniform(_FanScaledUniform):
    """Uniform on ``[-s, s]`` with ``s = scale * sqrt(6 / (fan_in +
    fan_out))``.

    Args:
        scale (float): Multiplier of the half-width.
        dtype: Data type of the arrays this initializer fills.
        rng (keyword only): Random number generator (see :class:`Uniform`).
    """

    def _fan_factor(self, fan_in, fan_out):
        return 6. / (fan_in + fan_out)


class HeUniform(_FanScaledUniform):
    """Uniform on ``[-s, s]`` with ``s = scale * sqrt(6 / fan_in)``.

    Args:
        scale (float): Multiplier of the half-width.
        dtype: Data type of the arrays this initializer fills.
        rng (keyword only): Random number generator (see :class:`Uniform`).
    """

    def _fan_factor(self, fan_in, fan_out):
        return 6. / fan_in
