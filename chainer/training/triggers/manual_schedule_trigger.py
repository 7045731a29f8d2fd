"""A trigger that fires at given iterations or epochs."""

import warnings

from chainer.training.triggers import _position


class ManualScheduleTrigger(_position.PositionTracker):
    """Trigger that fires when the updater reaches given points.

    It fires at a call when some point ``p`` lies in
    ``(previous position, current position]``.

    Args:
        points (int, float or list of them): The points; integers for the
            ``'iteration'`` unit, possibly fractional epochs otherwise.
        unit (str): ``'iteration'`` or ``'epoch'``.

    Attributes:
        finished (bool): Whether the trigger has fired at its last point
            and will not fire again. The trainer skips the ``initialize`` of
            an extension whose trigger is finished.
    """

    def __init__(self, points, unit):
        _position.check_unit(unit)
        super().__init__()
        self.points = points if isinstance(points, list) else [points]
        self.unit = unit
        self.finished = False
        self._finished_unknown = False

    def __call__(self, trainer):
        """Returns whether a point was reached since the last call.

        Args:
            trainer (~chainer.training.Trainer): The trainer.

        Returns:
            bool: ``True`` to fire.
        """
        updater = trainer.updater
        if self.unit == 'epoch':
            current = updater.epoch_detail
            previous = self._previous_epoch_detail
            if previous < 0:
                previous = updater.previous_epoch_detail
        else:
            current = updater.iteration
            previous = self._previous_iteration
            if previous < 0:
                previous = current - 1
        fire = any(previous < p <= current for p in self.points)
        past_last = current >= max(self.points)
        if self._finished_unknown:
            self._finished_unknown = False
            if past_last:
                self.finished = True
        if fire and past_last:
            self.finished = True

        self._previous_iteration = updater.iteration
        if hasattr(updater, 'epoch_detail'):
            self._previous_epoch_detail = updater.epoch_detail
        return fire

    def serialize(self, serializer):
        """Saves or loads the last position seen and ``finished``."""
        self.serialize_position(serializer, 'ManualScheduleTrigger')
        try:
            self.finished = serializer('finished', self.finished)
        except KeyError:
            warnings.warn(
                'The flag of finished is not saved. '
                'ManualScheduleTrigger set the flag to `False` to force '
                'initialization and reset in next `__call__`.')
            self.finished = False
            self._finished_unknown = True
