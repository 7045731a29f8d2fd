"""Triggers that fire when an observed value reaches a new best."""

from chainer import reporter
from chainer.training import util


class BestValueTrigger:
    """Trigger that fires when the mean of a value becomes the best so far.

    The value observed under ``key`` is averaged over each interval of
    ``trigger``; at the end of an interval the mean is compared with the
    best mean seen and the trigger fires if it is better (always at the
    first comparison).

    Args:
        key (str): The observation key.
        compare (callable): ``compare(best, new)`` returns whether ``new``
            is better than ``best``.
        trigger: The comparison interval, a trigger or a
            ``(period, unit)`` tuple.
    """

    def __init__(self, key, compare, trigger=(1, 'epoch')):
        self._key = key
        self._best_value = None
        self._interval_trigger = util.get_trigger(trigger)
        self._init_summary()
        self._compare = compare

    def __call__(self, trainer):
        """Accumulates the value and returns whether it became the best.

        Args:
            trainer (~chainer.training.Trainer): The trainer; its
                ``observation`` is read.

        Returns:
            bool: ``True`` to fire.
        """
        key = self._key
        observation = trainer.observation
        if key in observation:
            self._summary.add({key: observation[key]})

        if not self._interval_trigger(trainer):
            return False

        value = float(self._summary.compute_mean()[key])
        self._init_summary()
        if self._best_value is None or self._compare(self._best_value, value):
            self._best_value = value
            return True
        return False

    def _init_summary(self):
        self._summary = reporter.DictSummary()

    def serialize(self, serializer):
        """Saves or loads the interval, the running mean and the best."""
        self._interval_trigger.serialize(serializer['interval_trigger'])
        self._summary.serialize(serializer['summary'])
        self._best_value = serializer('best_value', self._best_value)


class MaxValueTrigger(BestValueTrigger):
    """Trigger that fires when the mean of a value reaches a new maximum.

    Args:
        key (str): The observation key (e.g. a validation accuracy).
        trigger: The comparison interval.
    """

    def __init__(self, key, trigger=(1, 'epoch')):
        super().__init__(key, _greater, trigger)


class MinValueTrigger(BestValueTrigger):
    """Trigger that fires when the mean of a value reaches a new minimum.

    Args:
        key (str): The observation key (e.g. a validation loss).
        trigger: The comparison interval.
    """

    def __init__(self, key, trigger=(1, 'epoch')):
        super().__init__(key, _less, trigger)


def _greater(best, new):
    return new > best


def _less(best, new):
    return new < best
