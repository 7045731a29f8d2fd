from chainer import backend
from chainer.training import extension
from chainer.training import util
from chainer import Variable


def _average_2d(xs):
    values = sum(xs, [])
    return sum(values) / len(values)


class ObservationAggregator(extension.Extension):
    """Aggregates an observed value over the ranks.

    The values of ``original_key`` observed since the last communication
    are gathered from all ranks when ``comm_trigger`` fires; rank 0 reduces
    them with ``aggregator`` and every rank reports the result under
    ``aggregated_key``.

    Args:
        comm: ChainerMN communicator.
        original_key (str): Key of the observation (a Variable's value is
            copied to the CPU).
        aggregated_key (str): Key of the result; ``original_key`` if
            ``None``.
        comm_trigger: When to communicate.
        aggregator (callable): Takes a list (one per rank) of lists of
            observed values, returns the summary; the mean by default.
    """

    trigger = 1, 'iteration'
    priority = extension.PRIORITY_EDITOR
    name = None

    def __init__(self, comm, original_key, aggregated_key=None, *,
                 comm_trigger=(1, 'iteration'), aggregator=None):
        self.comm = comm
        self.original_key = original_key
        self.aggregated_key = original_key if aggregated_key is None \
            else aggregated_key
        self.comm_trigger = util.get_trigger(comm_trigger)
        self.observation_history = []
        self.aggregator = aggregator or _average_2d

    def compute_summary(self, trainer):
        if self.original_key in trainer.observation:
            value = trainer.observation[self.original_key]
            if isinstance(value, Variable):
                value.to_device(backend.CpuDevice())
            self.observation_history.append(value)
        if not self.comm_trigger(trainer):
            return None
        gathered = self.comm.gather_obj(self.observation_history)
        self.observation_history = []
        if self.comm.rank == 0:
            summary = self.aggregator(gathered)
            self.comm.bcast_obj(summary)
            return summary
        return self.comm.bcast_obj(None)

    def __call__(self, trainer):
        summary = self.compute_summary(trainer)
        if summary is not None:
            trainer.observation[self.aggregated_key] = summary
