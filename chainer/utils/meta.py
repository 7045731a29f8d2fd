"""Final methods: methods that subclasses must not (or should not) override.

A class made with :func:`enable_final` checks, when each subclass is
defined, whether the subclass redefines a method marked with
:func:`final`, and then raises the error or emits the warning the mark
names.
"""

import warnings


_ACTION_ATTR = '__override_action'


def final(*args, **kwargs):
    """Marks a method as final.

    Used bare (``@final``) it makes overriding the method a
    :class:`TypeError`; ``@final(action=SomeWarning)`` emits that warning
    instead, ``@final(action=SomeError)`` raises that error. The class
    defining the method must derive from a base made by
    :func:`enable_final`.

    Args:
        action (type): An :class:`Exception` or :class:`Warning` subclass;
            :class:`TypeError` by default.
    """
    def mark(method, action=TypeError):
        if not callable(method):
            raise TypeError('final can only mark a callable')
        setattr(method, _ACTION_ATTR, (action,))
        return method

    if len(args) == 1 and not kwargs:
        return mark(args[0])
    if args:
        raise TypeError('final takes no positional arguments but the method')
    return lambda method: mark(method, **kwargs)


class _FinalChecker(type):

    def __new__(mcs, name, bases, namespace):
        for key in namespace:
            for base in bases:
                action = getattr(getattr(base, key, None), _ACTION_ATTR, None)
                if action is None:
                    continue
                action, = action
                if issubclass(action, Warning):
                    warnings.warn('Overriding method {!r}.'.format(key),
                                  action)
                elif issubclass(action, Exception):
                    raise action('method {!r} is final.'.format(key))
                else:
                    raise TypeError('invalid action: {}'.format(action))
        return super().__new__(mcs, name, bases, namespace)


def enable_final(base=(), meta_base=()):
    """Returns a base class whose subclasses respect :func:`final` marks.

    Args:
        base (type or tuple of types): What the new class derives from.
        meta_base (type or tuple of types): Metaclasses to combine with the
            checking one, so that subclasses having those metaclasses (for
            instance :class:`abc.ABCMeta`) do not conflict.

    Returns:
        type: A new class to derive from.
    """
    if not isinstance(base, (list, tuple)):
        base = (base,)
    if not isinstance(meta_base, (list, tuple)):
        meta_base = (meta_base,)
    metaclass = type('base_metaclass', (_FinalChecker,) + tuple(meta_base),
                     {})
    bases = tuple(base)

    class _Placeholder(type):
        # The class deriving from the returned one is made by ``metaclass``
        # on ``bases`` directly, so the placeholder stays out of its MRO.

        def __new__(mcs, name, _, namespace):
            return metaclass(name, bases, namespace)

    return type.__new__(_Placeholder, 'temporary_class', (), {})
