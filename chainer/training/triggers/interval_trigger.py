"""A trigger that fires at a fixed interval of iterations or epochs."""

from chainer.training.triggers import _position


class IntervalTrigger(_position.PositionTracker):
    """Trigger that fires every ``period`` iterations or epochs.

    It fires when the updater crosses a multiple of ``period`` since the
    last call. With the ``'epoch'`` unit the period may be fractional: the
    updater's ``epoch_detail`` is compared.

    Args:
        period (int or float): The length of the interval; an integer for
            the ``'iteration'`` unit.
        unit (str): ``'iteration'`` or ``'epoch'``.

    Attributes:
        period: The length of the interval.
        unit (str): Its unit.
        count (int): With the ``'epoch'`` unit, the number of whole periods
            passed at the last call.
    """

    def __init__(self, period, unit):
        _position.check_unit(unit)
        super().__init__()
        self.period = period
        self.unit = unit
        self.count = 0

    def __call__(self, trainer):
        """Returns whether the interval was crossed since the last call.

        Args:
            trainer (~chainer.training.Trainer): The trainer; its updater's
                position is read.

        Returns:
            bool: ``True`` to fire.
        """
        updater = trainer.updater
        if self.unit == 'epoch':
            current = updater.epoch_detail
            previous = self._previous_epoch_detail
            if previous < 0:
                previous = updater.previous_epoch_detail
            self.count = current // self.period
        else:
            current = updater.iteration
            previous = self._previous_iteration
            if previous < 0:
                previous = current - 1
        fire = previous // self.period != current // self.period

        self._previous_iteration = updater.iteration
        if hasattr(updater, 'epoch_detail'):
            self._previous_epoch_detail = updater.epoch_detail
        return fire

    def serialize(self, serializer):
        """Saves or loads the last position seen."""
        self.serialize_position(serializer, 'IntervalTrigger')

    def get_training_length(self):
        """Returns ``(period, unit)``: the length when used to stop."""
        return (self.period, self.unit)

    def __str__(self):
        return '{}({}, \'{}\')'.format(
            type(self).__name__, self.period, self.unit)
