from chainer.training.triggers import EarlyStoppingTrigger

from chainermn.extensions.observation_aggregator import ObservationAggregator


class MultiNodeEarlyStoppingTrigger:
    """Early stopping on a value averaged over all ranks.

    Works as :class:`~chainer.training.triggers.EarlyStoppingTrigger`, but
    at each check the monitored value is first averaged over the ranks
    (reported as ``monitor + suffix``), so all ranks stop at the same
    iteration.

    Args:
        comm: ChainerMN communicator.
        check_trigger: Interval of the checks, e.g. ``(1, 'epoch')``.
        monitor (str): The observed value to watch.
        patience (int): Checks without improvement before stopping.
        mode (str): ``'max'``, ``'min'`` or ``'auto'``.
        verbose (bool): Print when stopping.
        max_trigger: Upper bound of the training length.
        suffix (str): Appended to ``monitor`` for the averaged value.
    """

    def __init__(self, comm, *, check_trigger=(1, 'epoch'),
                 monitor='main/loss', patience=None, mode='auto',
                 verbose=False, max_trigger=(100, 'epoch'),
                 suffix='_aggregated', **kwargs):
        monitor_aggregated = monitor + suffix
        self.actual_trigger = EarlyStoppingTrigger(
            check_trigger=check_trigger, monitor=monitor_aggregated,
            patience=patience, mode=mode, verbose=verbose,
            max_trigger=max_trigger, **kwargs)
        self.aggregator = ObservationAggregator(
            comm, monitor, aggregated_key=monitor_aggregated,
            comm_trigger=check_trigger)

    def __call__(self, trainer):
        self.aggregator(trainer)
        return self.actual_trigger(trainer)

    def _stop_condition(self):
        return self.actual_trigger._stop_condition()

    def _init_summary(self):
        return self.actual_trigger._init_summary()

    def get_training_length(self):
        return self.actual_trigger.get_training_length()
