"""Round trips through the serializers, for tests of ``serialize``."""

import os

from chainer import utils


def save_and_load(src, dst, filename, saver, loader):
    """Saves ``src`` and loads the file into ``dst``, in a temporary folder.

    Args:
        src: The object to save.
        dst: Receives the loaded state.
        filename (str): Name of the file inside the temporary folder.
        saver (callable): ``saver(path, src)`` writes the file.
        loader (callable): ``loader(path, dst)`` reads it back.
    """
    with utils.tempdir() as tempdir:
        path = os.path.join(tempdir, filename)
        saver(path, src)
        loader(path, dst)


def save_and_load_npz(src, dst):
    """Round trip of ``src`` into ``dst`` through an NPZ file.

    Args:
        src: The object to save.
        dst: Receives the loaded state.
    """
    from chainer import serializers

    save_and_load(
        src, dst, 'tmp.npz', serializers.save_npz, serializers.load_npz)


def save_and_load_hdf5(src, dst):
    """Round trip of ``src`` into ``dst`` through an HDF5 file.

    Args:
        src: The object to save.
        dst: Receives the loaded state.
    """
    from chainer import serializers

    save_and_load(
        src, dst, 'tmp.h5', serializers.save_hdf5, serializers.load_hdf5)
