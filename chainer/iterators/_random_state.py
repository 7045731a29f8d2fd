"""Saving and loading the state of random number generators.

A state is saved as a ``uint8`` array holding its JSON text, so any
serializer (NPZ, HDF5) stores it and Chainer 7.8, which does not read these
keys, ignores it. Python's :class:`random.Random`, NumPy's
:class:`~numpy.random.RandomState` (the global one included) and
:class:`~numpy.random.Generator` are supported.
"""

import json
import random

import numpy

from chainer import serializer as serializer_module


def _get_state(generator):
    if isinstance(generator, random.Random):
        return list(generator.getstate())
    if isinstance(generator, numpy.random.RandomState):
        return generator.get_state(legacy=False)
    return generator.bit_generator.state


def _set_state(generator, state):
    if isinstance(generator, random.Random):
        version, internal, gauss_next = state
        generator.setstate((version, tuple(internal), gauss_next))
    elif isinstance(generator, numpy.random.RandomState):
        generator.set_state(state)
    else:
        generator.bit_generator.state = state


def is_supported(generator):
    """Whether :func:`serialize` can save the state of ``generator``."""
    return isinstance(generator, (random.Random, numpy.random.RandomState,
                                  numpy.random.Generator))


def serialize(serializer, key, generator):
    """Saves or loads the state of a random number generator.

    On loading, a missing key (a snapshot written without it, e.g. by
    Chainer 7.8) leaves the generator as it is.

    Args:
        serializer (~chainer.AbstractSerializer): The serializer.
        key (str): The key of the state.
        generator: A :class:`random.Random`,
            :class:`numpy.random.RandomState` or
            :class:`numpy.random.Generator`.
    """
    if isinstance(serializer, serializer_module.Serializer):
        text = json.dumps(_get_state(generator),
                          default=lambda array: array.tolist())
        serializer(key, numpy.frombuffer(text.encode('ascii'), numpy.uint8))
        return
    try:
        data = serializer(key, None)
    except KeyError:
        return
    if data is None:
        return
    text = numpy.asarray(data, numpy.uint8).tobytes().decode('ascii')
    _set_state(generator, json.loads(text))
