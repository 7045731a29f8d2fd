import types

import pytest

from chainer import serializers


def _values(make, n=8, init_lr=0.5):
    """Returns the ``lr`` set by a shift extension: after ``initialize``,
    then after each of ``n`` calls."""
    optimizer = types.SimpleNamespace(lr=init_lr)
    extension = make(optimizer)
    extension.initialize(None)
    values = [float(optimizer.lr)]
    for _ in range(n):
        extension(None)
        values.append(float(optimizer.lr))
    return values


def _resumed_values(make, n_before=3, n_after=4):
    """Runs a shift ``n_before`` calls, saves it, loads a new one and
    returns the saved keys and the values the new one sets."""
    optimizer = types.SimpleNamespace(lr=0.5)
    extension = make(optimizer)
    extension.initialize(None)
    for _ in range(n_before):
        extension(None)
    state = serializers.npz.serialize(extension)

    optimizer = types.SimpleNamespace(lr=0.5)
    resumed = make(optimizer)
    resumed.serialize(serializers.NpzDeserializer(state))
    resumed.initialize(None)
    values = [float(optimizer.lr)]
    for _ in range(n_after):
        resumed(None)
        values.append(float(optimizer.lr))
    return sorted(state), values


@pytest.fixture
def shift_values():
    return _values


@pytest.fixture
def shift_resumed_values():
    return _resumed_values
