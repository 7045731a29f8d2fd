"""An extension that reports a micro-averaged ratio."""

from chainer import reporter
from chainer.training import extension
from chainer.training import util


class MicroAverage(extension.Extension):
    """Trainer extension that reports the ratio of two summed values.

    Over each interval of ``trigger`` it sums the observed numerators
    :math:`n_i` and denominators :math:`d_i` (e.g. the numbers of correct
    and of all examples of each batch) and reports
    :math:`\\sum_i n_i / \\sum_i d_i` under ``result_key``: the
    micro-average, unlike the mean of the ratios when batches differ in
    size. Iterations that miss either value are skipped.

    Args:
        numerator_key (str): The observation key of the numerators.
        denominator_key (str): The observation key of the denominators.
        result_key (str): The key the ratio is reported under.
        trigger: When to report: a trigger or a ``(period, unit)`` tuple.

    Example:
        >>> ext = extensions.MicroAverage(
        ...     'main/correct', 'main/total', 'main/accuracy')
    """

    priority = extension.PRIORITY_EDITOR

    def __init__(self, numerator_key, denominator_key, result_key,
                 trigger=(1, 'epoch')):
        self._trigger = util.get_trigger(trigger)
        self._numerator_key = numerator_key
        self._denominator_key = denominator_key
        self._result_key = result_key
        self._numerator = 0
        self._denominator = 0

    def __call__(self, trainer):
        observation = trainer.observation
        if not (self._numerator_key in observation and
                self._denominator_key in observation):
            return

        self._numerator += observation[self._numerator_key]
        self._denominator += observation[self._denominator_key]

        if self._trigger(trainer):
            result = float(self._numerator) / self._denominator
            self._numerator = 0
            self._denominator = 0
            reporter.report({self._result_key: result})

    def serialize(self, serializer):
        """Saves or loads the running sums."""
        self._numerator = serializer('_numerator', self._numerator)
        self._denominator = serializer('_denominator', self._denominator)
