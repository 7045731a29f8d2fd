"""A property cache that remembers one value per backprop mode."""

import functools

from chainer import configuration


class cached_property:
    """Computes a property once for each value of ``enable_backprop``.

    The first read under ``chainer.config.enable_backprop`` being ``True``
    and the first read with it ``False`` each call the wrapped method; later
    reads in the same mode return the stored result, so a graph built with
    backprop is never reused where none was wanted, and the other way round.
    The property cannot be assigned.

    Example:
        >>> class Model:
        ...     def __init__(self, x):
        ...         self.x = x
        ...     @chainer.utils.cache.cached_property
        ...     def y(self):
        ...         return F.sigmoid(self.x)
        >>> m = Model(chainer.Variable(np.array([2, 3], np.float32)))
        >>> m.y is m.y
        True
    """

    def __init__(self, func):
        functools.update_wrapper(self, func)
        self.func = func

    def __get__(self, obj, cls):
        if obj is None:
            return self
        caches = obj.__dict__.setdefault(self.__name__, {})
        mode = configuration.config.enable_backprop
        if mode not in caches:
            caches[mode] = self.func(obj)
        return caches[mode]

    def __set__(self, obj, value):
        raise AttributeError(
            'attribute \'{}\' of {} is readonly'.format(
                self.__name__, type(obj)))
