"""Conversion of trigger specifications into trigger objects."""

from chainer.training.triggers import interval_trigger


def get_trigger(trigger):
    """Returns a trigger object for a trigger specification.

    A trigger is a callable that takes the trainer and returns a bool.

    Args:
        trigger: A callable (returned as it is), ``None`` (a trigger that
            never fires) or a ``(period, unit)`` tuple given to
            :class:`~chainer.training.triggers.IntervalTrigger`.

    Returns:
        The trigger.
    """
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never_fire_trigger
    return interval_trigger.IntervalTrigger(*trigger)


def _never_fire_trigger(trainer):
    return False
