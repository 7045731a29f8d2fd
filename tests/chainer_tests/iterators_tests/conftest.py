import numpy
import pytest

import chainer


class NpzLikeSerializer(chainer.Serializer):
    """Saves values as NumPy arrays into a dict, as ``save_npz`` does."""

    def __init__(self, target, path=''):
        self.target = target
        self.path = path

    def __getitem__(self, key):
        return NpzLikeSerializer(self.target, self.path + key + '/')

    def __call__(self, key, value):
        self.target[self.path + key] = numpy.asarray(value).copy()
        return value


class NpzLikeDeserializer(chainer.Deserializer):
    """Loads values from such a dict, as ``load_npz`` does.

    Arrays are loaded in place, other values are cast to the type of the
    current value, a missing key raises ``KeyError``.
    """

    def __init__(self, source, path=''):
        self.source = source
        self.path = path

    def __getitem__(self, key):
        return NpzLikeDeserializer(self.source, self.path + key + '/')

    def __call__(self, key, value):
        stored = self.source[self.path + key]
        if stored.dtype == object and stored[()] is None:
            return None
        if value is None:
            return stored
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, stored)
            return value
        return type(value)(stored)


@pytest.fixture
def save():
    def save(iterator):
        target = {}
        iterator.serialize(NpzLikeSerializer(target))
        return target
    return save


@pytest.fixture
def load():
    def load(iterator, source):
        iterator.serialize(NpzLikeDeserializer(source))
    return load
