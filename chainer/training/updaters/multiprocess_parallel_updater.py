"""The multi-process NCCL updater: only its availability check is here."""

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
    of the original: constructing it raises an error that says so (or,
    as in the original, that NCCL is missing). Use
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
        Exception: If NCCL is not available (the original's error).
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
