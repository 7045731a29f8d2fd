"""Decorators and helpers that take part in a static schedule."""

import functools

from chainer import configuration
from chainer.function_node import static_forward_optimizations  # NOQA


def static_code(*dec_args, **dec_kwargs):
    """Marks a function to run again each time a static schedule replays.

    A chain decorated with :func:`~chainer.static_graph` runs its Python code
    once per input signature; later calls replay only the recorded function
    nodes. Code with side effects that must run every call (updating a
    counter, copying arrays into a buffer, computing arrays that later
    functions read) goes into a function decorated with ``static_code``: it
    runs while the schedule is recorded and is called again, with the same
    arguments, at its place in the schedule on every replay.

    Array arguments given in a list as the keyword argument ``inputs`` are
    refreshed on replay: an array computed in the schedule, an input array
    of the chain or a parameter's array is replaced by its value of the
    current call. Arrays returned by the function (one array, or a tuple or
    list of arrays) replace, on replay, the arrays that later functions of
    the schedule read.

    Outside a static chain the function just runs.

    It is used as ``@static_code`` or ``@static_code(func_name='name')``.

    Args:
        func_name (str): A name shown in the schedule's description.

    Returns:
        The wrapped function.
    """
    func_name = dec_kwargs.get('func_name')
    if len(dec_args) == 1 and not dec_kwargs and callable(dec_args[0]):
        return _wrap_static_code(dec_args[0], None)
    return lambda func: _wrap_static_code(func, func_name)


def _wrap_static_code(func, func_name):
    @functools.wraps(func)
    def wrapped_func(*args, **kwargs):
        schedule = configuration.config.schedule_func
        if schedule is None:
            return func(*args, **kwargs)
        return schedule.append_function(func, args, kwargs,
                                        func_name=func_name)
    return wrapped_func
