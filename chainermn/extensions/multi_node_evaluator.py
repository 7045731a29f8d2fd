import copy
import types

from chainer import backend
from chainer.dataset import convert
from chainer import function
from chainer.training import extension
from chainer.utils import argument


class GenericMultiNodeEvaluator(extension.Extension):
    """Evaluation whose results are not a mean: computed everywhere,
    aggregated on ``root``.

    Every rank runs :meth:`calc_local` on each batch of its (non-repeating)
    iterator; ``root`` collects all the results, of all ranks, and passes
    their list to :meth:`aggregate` once per evaluation. The ranks' datasets
    need not have the same length. Override the two methods; reporting is
    up to :meth:`aggregate`.

    Args:
        comm: ChainerMN communicator.
        iterator: Iterator over this rank's test data; must not repeat.
        target (callable): The model (used by the default
            :meth:`calc_local`).
        device: Device the converter sends the batches to.
        converter (callable): Batch converter;
            :func:`~chainer.dataset.concat_examples` by default.
        root (int): Rank that aggregates.
        progress_hook (callable): Called on ``root`` with each batch.
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(self, comm, iterator, target, device=None,
                 converter=convert.concat_examples, root=0, **kwargs):
        progress_hook, = argument.parse_kwargs(kwargs,
                                               ('progress_hook', None))
        self.comm = comm
        self.iterator = iterator
        self._targets = {'main': target}
        self.converter = converter
        self.device = None if device is None else backend.get_device(device)
        self._progress_hook = progress_hook
        assert 0 <= root < self.comm.size
        self.root = root

    def __call__(self, trainer):
        if hasattr(self.iterator, 'reset'):
            self.iterator.reset()
            it = self.iterator
        else:
            it = copy.copy(self.iterator)
        if self.comm is None:
            return self.aggregate(list(self._evaluate_local_single(it)))
        results = list(self._evaluate_local(it))
        if self.comm.rank == self.root:
            return self.aggregate(results)
        return None

    def calc_local(self, *args, **kwargs):
        """Evaluates one batch on this rank (the target by default).

        Args:
            args, kwargs: The converted batch (tuple or dict).

        Returns:
            Any value but ``None``.
        """
        return self._targets['main'](*args, **kwargs)

    def aggregate(self, results):
        """Combines the results of all ranks (on ``root`` only).

        Args:
            results (list): Every return value of :meth:`calc_local` on
                every rank.

        Returns:
            The results unchanged, by default.
        """
        return results

    def _calc_batch(self, batch):
        in_arrays = convert._call_converter(self.converter, batch,
                                            self.device)
        with function.no_backprop_mode():
            if isinstance(in_arrays, tuple):
                return self.calc_local(*in_arrays)
            if isinstance(in_arrays, dict):
                return self.calc_local(**in_arrays)
            return self.calc_local(in_arrays)

    def _evaluate_local_single(self, iterator):
        for batch in iterator:
            results = self._calc_batch(batch)
            if self._progress_hook:
                self._progress_hook(batch)
            yield results

    def _evaluate_local(self, iterator):
        # Every rank computes a batch, root gathers the results; after a
        # few rounds the ranks agree whether anyone still has data.
        gather_interval = 8
        all_done = False
        while not all_done:
            for _ in range(gather_interval):
                try:
                    batch = iterator.next()
                except StopIteration:
                    results = None
                else:
                    results = self._calc_batch(batch)
                    if self.comm.rank == self.root and self._progress_hook:
                        self._progress_hook(batch)
                gathered = self.comm.gather_obj(results, root=self.root)
                if self.comm.rank == self.root:
                    valid = [r for r in gathered if r is not None]
                    yield from valid
                    all_done = not valid
            all_done = self.comm.bcast_obj(
                all_done if self.comm.rank == self.root else None,
                root=self.root)


def create_multi_node_evaluator(actual_evaluator, communicator):
    """Makes an evaluator report the mean of its results over the ranks.

    ``actual_evaluator`` (e.g. :class:`~chainer.training.extensions.\
Evaluator`) evaluates this rank's part of the test data; each reported value
    is then averaged over all ranks, so every rank reports the same. The
    evaluator is patched in place (attributes starting with ``_mn_``) and
    returned.

    Args:
        actual_evaluator: The evaluator to patch.
        communicator: ChainerMN communicator.

    Returns:
        The patched ``actual_evaluator``.
    """
    actual_evaluator._mn_original_evaluate = actual_evaluator.evaluate
    actual_evaluator._mn_communicator = communicator

    def new_evaluate(self):
        local_mean_dict = self._mn_original_evaluate()
        comm = self._mn_communicator
        return {name: comm.allreduce_obj(value) / comm.size
                for name, value in sorted(local_mean_dict.items())}

    actual_evaluator.evaluate = types.MethodType(new_evaluate,
                                                 actual_evaluator)
    return actual_evaluator
