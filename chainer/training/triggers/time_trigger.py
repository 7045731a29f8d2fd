"""A trigger that fires at a fixed interval of training time."""


class TimeTrigger:
    """Trigger that fires every ``period`` seconds of training time.

    It reads :attr:`~chainer.training.Trainer.elapsed_time`, so time spent
    before a snapshot counts after resuming.

    Args:
        period (float): The interval in seconds.
    """

    def __init__(self, period):
        self._period = period
        self._next_time = period

    def __call__(self, trainer):
        """Returns ``True`` when the next deadline has passed."""
        if self._next_time < trainer.elapsed_time:
            self._next_time += self._period
            return True
        return False

    def serialize(self, serializer):
        """Saves or loads the next deadline."""
        self._next_time = serializer('next_time', self._next_time)
