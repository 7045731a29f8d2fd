"""A stop trigger for early stopping."""

import operator
import warnings

from chainer import reporter
from chainer.training import util
from chainer.utils import argument


class EarlyStoppingTrigger:
    """__init__(self, check_trigger=(1, 'epoch'), monitor='main/loss', \
patience=3, mode='auto', verbose=False, max_trigger=(100, 'epoch'))

    Stop trigger that fires when a monitored value stops improving.

    The monitored value is averaged over each interval of
    ``check_trigger``. When the mean has not improved on the best one for
    ``patience`` intervals in a row, or when ``max_trigger`` fires, the
    trigger fires and the trainer stops.

    Args:
        check_trigger: The comparison interval, a ``(period, unit)`` tuple.
        monitor (str): The observation key to watch.
        patience (int): How many intervals without improvement to accept.
            ``patients`` is accepted as an old alias.
        mode (str): ``'max'``, ``'min'`` or ``'auto'`` (``'max'`` when the
            key contains ``'accuracy'``, ``'min'`` otherwise).
        verbose (bool): Print the comparison mode and the stopping epoch.
        max_trigger: Upper bound of training length.
    """

    def __init__(self, check_trigger=(1, 'epoch'), monitor='main/loss',
                 patience=None, mode='auto', verbose=False,
                 max_trigger=(100, 'epoch'), **kwargs):
        patients, = argument.parse_kwargs(kwargs, ('patients', None))
        if patients is not None:
            if patience is not None:
                raise TypeError(
                    'Both \'patience\' and \'patients\' arguments are '
                    'specified. \'patients\' is an alias of the former. '
                    'Specify only \'patience\'.')
            patience = patients
        elif patience is None:
            patience = 3

        self.count = 0
        self.patience = patience
        self.monitor = monitor
        self.verbose = verbose
        self.already_warning = False
        self._max_trigger = util.get_trigger(max_trigger)
        self._interval_trigger = util.get_trigger(check_trigger)
        self._init_summary()

        if mode == 'max' or (mode != 'min' and 'accuracy' in monitor):
            self._compare = operator.gt
            self.best = float('-inf')
            if verbose:
                print('early stopping: operator is greater')
        else:
            self._compare = operator.lt
            self.best = float('inf')
            if verbose:
                print('early stopping: operator is less')

    def __call__(self, trainer):
        """Returns whether the training should stop.

        Args:
            trainer (~chainer.training.Trainer): The trainer; its
                ``observation`` is read.

        Returns:
            bool: ``True`` to stop.
        """
        observation = trainer.observation
        if self.monitor in observation:
            self._summary.add({self.monitor: observation[self.monitor]})

        if self._max_trigger(trainer):
            return True
        if not self._interval_trigger(trainer):
            return False

        if self.monitor not in observation:
            warnings.warn('{} is not in observation'.format(self.monitor))
            return False

        current = self._summary.compute_mean()[self.monitor]
        self._init_summary()
        if self._compare(current, self.best):
            self.best = current
            self.count = 0
        else:
            self.count += 1

        if self._stop_condition():
            if self.verbose:
                print('Epoch {}: early stopping'.format(trainer.updater.epoch))
            return True
        return False

    def _stop_condition(self):
        return self.count >= self.patience

    def _init_summary(self):
        self._summary = reporter.DictSummary()

    def get_training_length(self):
        """Returns the training length of ``max_trigger``."""
        return self._max_trigger.get_training_length()
