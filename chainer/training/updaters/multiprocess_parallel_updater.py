"""The multi-process NCCL updater and its packing of arrays.

Only the availability check of the updater is provided. The helpers that
pack all the gradients (or parameters) of a link into one float32 GPU
array, and unpack it, work on any link held by CuPy.
"""

import numpy

from chainer.backends import cuda
from chainer.dataset import convert
from chainer.training.updaters import standard_updater


def _nccl_available():
    if not cuda.available:
        return False
    try:
        from cupy.cuda import nccl  # NOQA
    except Exception:
        return False
    return True


class MultiprocessParallelUpdater(standard_updater.StandardUpdater):
    """Multi-process, multi-GPU updater over NCCL (not provided).

    This implementation does not provide the one-process-per-GPU updater
    of Chainer: constructing it raises an error that says so (or, as
    Chainer does, that NCCL is missing). Use
    :class:`~chainer.training.updaters.ParallelUpdater` in one process, or
    ``chainermn`` for multi-process data parallelism.

    Args:
        iterators: One training iterator per device.
        optimizer: The optimizer.
        converter: The converter.
        devices: The devices.
        auto_new_epoch (bool): See
            :class:`~chainer.training.updaters.StandardUpdater`.

    Raises:
        Exception: If NCCL is not available (Chainer's error).
        NotImplementedError: Otherwise.
    """

    def __init__(self, iterators, optimizer, converter=convert.concat_examples,
                 devices=None, auto_new_epoch=True):
        if not MultiprocessParallelUpdater.available():
            raise Exception(
                'NCCL is not enabled. MultiprocessParallelUpdater '
                'requires NCCL.\n'
                'Please reinstall CuPy after you install NCCL.\n'
                '(see https://docs-cupy.chainer.org/en/latest/install.html)')
        raise NotImplementedError(
            'MultiprocessParallelUpdater is not provided by this '
            'implementation; use ParallelUpdater or chainermn instead.')

    @staticmethod
    def available():
        """Returns whether CuPy with NCCL is available."""
        return _nccl_available()


def size_num_grads(link):
    """Counts the elements and the non-empty parameters of a link.

    Args:
        link (~chainer.Link): The link.

    Returns:
        tuple: The total size of the non-empty parameters and their number.
    """
    size = 0
    num = 0
    for param in link.params():
        if param.size == 0:
            continue
        size += param.size
        num += 1
    return size, num


def _packed_params(link):
    # The non-empty parameters in the order of their sorted paths: the
    # layout of a gathered array.
    return [param for _, param in sorted(link.namedparams())
            if param.size != 0]


def _gather(link, target, what):
    if link.xp is not cuda.cupy:
        raise RuntimeError('{} works only on GPU.'.format(what))
    cupy = cuda.cupy
    parts = []
    for param in _packed_params(link):
        array = getattr(param, target)
        if array is None:
            parts.append(cupy.zeros(param.size, numpy.float32))
        else:
            parts.append(array.ravel().astype(numpy.float32, copy=False))
    if not parts:
        return cupy.empty(0, numpy.float32)
    return cupy.concatenate(parts)


def gather_grads(link):
    """Packs all the gradients of a link into one float32 GPU array.

    Parameters are taken in the order of their sorted paths; empty ones are
    skipped and a missing gradient counts as zeros.

    Args:
        link (~chainer.Link): A link on a GPU.

    Returns:
        cupy.ndarray: The packed gradients.

    Raises:
        RuntimeError: If the link is not on a GPU.
    """
    return _gather(link, 'grad', 'gather_grads')


def gather_params(link):
    """Packs all the parameter arrays of a link into one float32 GPU array.

    Args:
        link (~chainer.Link): A link on a GPU.

    Returns:
        cupy.ndarray: The packed parameters, laid out as by
        :func:`gather_grads`.

    Raises:
        RuntimeError: If the link is not on a GPU.
    """
    return _gather(link, 'data', 'Link.gather_params')


def _scatter(link, array, target):
    cupy = cuda.cupy
    offset = 0
    for param in _packed_params(link):
        dst = getattr(param, target)
        if dst is None:
            dst = cupy.zeros(param.shape, dtype=param.dtype)
            setattr(param, target, dst)
        chunk = array[offset:offset + param.size]
        dst[...] = chunk.reshape(param.shape).astype(dst.dtype, copy=False)
        offset += param.size


def scatter_grads(link, array):
    """Unpacks an array made by :func:`gather_grads` into the gradients.

    Args:
        link (~chainer.Link): The link on a GPU.
        array (cupy.ndarray): The packed gradients.
    """
    _scatter(link, array, 'grad')


def scatter_params(link, array):
    """Unpacks an array made by :func:`gather_params` into the parameters.

    Args:
        link (~chainer.Link): The link on a GPU.
        array (cupy.ndarray): The packed parameters.
    """
    _scatter(link, array, 'data')
