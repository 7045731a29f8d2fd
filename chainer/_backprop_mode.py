"""``no_backprop_mode`` and ``force_backprop_mode``.

Both set ``chainer.config.enable_backprop`` for a ``with`` block or for the
calls of a decorated function. They are offered as ``chainer.X`` and, as
in Chainer, as ``chainer.function.X``.
"""

import functools

from chainer import configuration


class _ModeContext:
    """Context manager and decorator that sets ``enable_backprop``."""

    def __init__(self, enable_backprop):
        self._enable_backprop = enable_backprop
        self._contexts = []

    def __enter__(self):
        context = configuration.using_config(
            'enable_backprop', self._enable_backprop)
        context.__enter__()
        self._contexts.append(context)

    def __exit__(self, *args):
        self._contexts.pop().__exit__(*args)

    def __call__(self, func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            with configuration.using_config(
                    'enable_backprop', self._enable_backprop):
                return func(*args, **kwargs)
        return wrapped


def no_backprop_mode():
    """Disables graph building, in a ``with`` block or as a decorator.

    Functions applied in the block compute their outputs but do not link
    them to their inputs, so no memory is kept for backward.

    Example:
        >>> x = chainer.Variable(numpy.ones(2, numpy.float32))
        >>> with chainer.no_backprop_mode():
        ...     y = x + 1
        >>> y.creator is None
        True
    """
    return _ModeContext(False)


def force_backprop_mode():
    """Enables graph building even inside :func:`no_backprop_mode`."""
    return _ModeContext(True)
