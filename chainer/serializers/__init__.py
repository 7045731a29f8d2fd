"""Saving and loading of links, optimizers and trainers: NPZ and HDF5."""

from chainer.serializers.hdf5 import HDF5Deserializer  # NOQA
from chainer.serializers.hdf5 import HDF5Serializer  # NOQA
from chainer.serializers.hdf5 import load_hdf5  # NOQA
from chainer.serializers.hdf5 import save_hdf5  # NOQA
from chainer.serializers.npz import DictionarySerializer  # NOQA
from chainer.serializers.npz import load_npz  # NOQA
from chainer.serializers.npz import NpzDeserializer  # NOQA
from chainer.serializers.npz import save_npz  # NOQA
