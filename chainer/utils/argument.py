"""Helpers for functions that take keyword-only options via ``**kwargs``."""

import inspect


def check_unexpected_kwargs(kwargs, **unexpected):
    """Raises ``ValueError`` for keyword arguments that are no longer valid.

    Args:
        kwargs (dict): The keyword arguments a caller received.
        **unexpected: Maps each retired argument name to the message raised
            when it is given.
    """
    for key, message in unexpected.items():
        if key in kwargs:
            raise ValueError(message)


def parse_kwargs(kwargs, *name_and_values, **unexpected):
    """Pops the given options from ``kwargs`` and checks none is left.

    Args:
        kwargs (dict): The keyword arguments a caller received; the options
            found are removed from it.
        *name_and_values: ``(name, default)`` pairs of the accepted options.
        **unexpected: Retired names and their messages, as in
            :func:`check_unexpected_kwargs`.

    Returns:
        tuple: The value of each option (or its default), in the given
        order.
    """
    values = [kwargs.pop(name, default) for name, default in name_and_values]
    if kwargs:
        check_unexpected_kwargs(kwargs, **unexpected)
        _raise_unexpected(kwargs)
    return tuple(values)


def assert_kwargs_empty(kwargs):
    """Raises ``TypeError`` naming the caller if ``kwargs`` is not empty."""
    if kwargs:
        _raise_unexpected(kwargs)


def _raise_unexpected(kwargs):
    caller = inspect.currentframe().f_back.f_back.f_code.co_name
    names = ', '.join("'{}'".format(key) for key in sorted(kwargs))
    raise TypeError(
        '{}() got unexpected keyword argument(s) {}'.format(caller, names))
