"""A trainer driven by a mock updater, for tests of extensions."""

import unittest.mock


def is_available():
    """Returns ``True``: :mod:`unittest.mock` is always available."""
    return True


def check_available():
    """Does nothing: the mock library is part of the standard library."""


def get_error():
    """Returns ``None``: there is no import error to report."""
    return None


def get_trainer_with_mock_updater(
        stop_trigger=(10, 'iteration'), iter_per_epoch=10, extensions=None):
    """Makes a :class:`~chainer.training.Trainer` driven by a mock updater.

    Each ``update()`` of the mock advances ``iteration``, ``epoch``,
    ``epoch_detail``, ``is_new_epoch`` and ``previous_epoch_detail`` as a
    real updater over ``iter_per_epoch`` iterations per epoch would.

    Args:
        stop_trigger: When the trainer stops.
        iter_per_epoch (int): How many iterations make an epoch.
        extensions (list): Extensions the trainer is given.

    Returns:
        ~chainer.training.Trainer: The trainer.
    """
    from chainer import training

    if extensions is None:
        extensions = []
    updater = unittest.mock.Mock()
    updater.get_all_optimizers.return_value = {}
    updater.iteration = 0
    updater.epoch = 0
    updater.epoch_detail = 0
    updater.is_new_epoch = True
    updater.previous_epoch_detail = None

    def update():
        updater.update_core()
        updater.iteration += 1
        updater.epoch = updater.iteration // iter_per_epoch
        updater.epoch_detail = updater.iteration / iter_per_epoch
        updater.is_new_epoch = (
            (updater.iteration - 1) // iter_per_epoch != updater.epoch)
        updater.previous_epoch_detail = (
            (updater.iteration - 1) / iter_per_epoch)

    updater.update = update
    return training.Trainer(updater, stop_trigger, extensions=extensions)
