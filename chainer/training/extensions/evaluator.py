"""Trainer extension computing the metrics of a model on held-out data."""

import copy
import datetime
import warnings

from chainer import backend
from chainer import configuration
from chainer.dataset import convert
from chainer.dataset import iterator as iterator_module
from chainer import iterators
from chainer import link
from chainer import reporter as reporter_module
from chainer.training import extension
from chainer.training.extensions import util
from chainer.utils import argument


_REPEATABLE_ITERATORS = (
    iterators.SerialIterator, iterators.MultiprocessIterator,
    iterators.MultithreadIterator)


class Evaluator(extension.Extension):
    """__init__(self, iterator, target, converter=convert.concat_examples, \
device=None, eval_hook=None, eval_func=None, *, progress_bar=False)

    Trainer extension that measures its targets on a validation dataset.

    Each call sweeps the ``'main'`` iterator once (resetting it first),
    calls ``eval_func`` on every converted batch with
    ``chainer.config.train`` set to ``False`` and without building graphs,
    and averages the values reported meanwhile with a
    :class:`~chainer.DictSummary`. The means are returned and reported to
    the current reporter. The targets are observers named
    ``'<extension name>/<target name>'``, so a loss reported by the
    ``'main'`` target of an evaluator named ``'validation'`` is logged as
    ``'validation/main/loss'``.

    It runs once per epoch by default, with :data:`PRIORITY_WRITER`.

    Args:
        iterator: The validation iterator (it should not repeat), or a dict
            of them; a single one is named ``'main'``.
        target: The link to evaluate, or a dict of them; a single one is
            named ``'main'``.
        converter: Makes the arguments of ``eval_func`` from a batch and
            ``device``; :func:`~chainer.dataset.concat_examples` by default.
        device: Device specifier the batches are sent to.
        eval_hook: Called with the evaluator at the start of each
            evaluation.
        eval_func: Called on each batch; the ``'main'`` target by default.
        progress_bar (bool): Draw a progress bar of the sweep on standard
            output.

    Attributes:
        converter: The converter.
        device: The device, or ``None``.
        eval_hook: The hook, or ``None``.
        eval_func: The evaluation function, or ``None``.
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER

    name = None

    def __init__(self, iterator, target, converter=convert.concat_examples,
                 device=None, eval_hook=None, eval_func=None, **kwargs):
        progress_bar, = argument.parse_kwargs(kwargs, ('progress_bar', False))

        if device is not None:
            device = backend.get_device(device)

        if isinstance(iterator, iterator_module.Iterator):
            iterator = {'main': iterator}
        self._iterators = iterator

        if isinstance(target, link.Link):
            target = {'main': target}
        self._targets = target

        self.converter = converter
        self.device = device
        self.eval_hook = eval_hook
        self.eval_func = eval_func
        self._progress_bar = progress_bar

        for key, it in iterator.items():
            if isinstance(it, _REPEATABLE_ITERATORS) and getattr(
                    it, 'repeat', False):
                warnings.warn(
                    'The `repeat` property of the iterator {} is set to '
                    '`True`. Typically, the evaluator sweeps over iterators '
                    'until they stop, but as the property being `True`, this '
                    'iterator might not stop and evaluation could go into an '
                    'infinite loop. We recommend to check the configuration '
                    'of iterators'.format(key))

    def get_iterator(self, name):
        """The iterator registered under ``name``."""
        return self._iterators[name]

    def get_all_iterators(self):
        """Returns a new dict of all iterators by name."""
        return dict(self._iterators)

    def get_target(self, name):
        """The link evaluated under ``name``."""
        return self._targets[name]

    def get_all_targets(self):
        """Returns a new dict of all target links by name."""
        return dict(self._targets)

    def __call__(self, trainer=None):
        """Evaluates the targets and reports the means.

        It can be called without a trainer, e.g. inside a reporter scope of
        one's own.

        Args:
            trainer (~chainer.training.Trainer): The calling trainer, if
                any.

        Returns:
            dict: The mean of each reported value.
        """
        reporter = reporter_module.Reporter()
        prefix = '' if self.name is None else self.name + '/'
        for name, target in self._targets.items():
            reporter.add_observer(prefix + name, target)
            reporter.add_observers(prefix + name,
                                   target.namedlinks(skipself=True))

        with reporter:
            with configuration.using_config('train', False):
                result = self.evaluate()

        reporter_module.report(result)
        return result

    def evaluate(self):
        """Runs the evaluation loop and returns the mean of each value.

        Override it for a custom loop; it then has to reset (or copy) the
        iterator itself. It runs inside the reporter of :meth:`__call__`.

        Returns:
            dict: The mean of each value reported during the sweep.
        """
        iterator = self._iterators['main']
        eval_func = self.eval_func or self._targets['main']

        if self.eval_hook:
            self.eval_hook(self)

        if hasattr(iterator, 'reset'):
            iterator.reset()
            it = iterator
        else:
            warnings.warn(
                'This iterator does not have the reset method. Evaluator '
                'copies the iterator instead of resetting. This behavior is '
                'deprecated. Please implement the reset method.',
                DeprecationWarning)
            it = copy.copy(iterator)

        summary = reporter_module.DictSummary()
        pbar = _IteratorProgressBar(iterator=it) if self._progress_bar \
            else None

        for batch in it:
            observation = {}
            with reporter_module.report_scope(observation):
                in_arrays = convert._call_converter(
                    self.converter, batch, self.device)
                with configuration.using_config('enable_backprop', False):
                    if isinstance(in_arrays, tuple):
                        eval_func(*in_arrays)
                    elif isinstance(in_arrays, dict):
                        eval_func(**in_arrays)
                    else:
                        eval_func(in_arrays)
            summary.add(observation)
            if pbar is not None:
                pbar.update()

        if pbar is not None:
            pbar.close()
        return summary.compute_mean()

    def finalize(self):
        """Finalizes every iterator."""
        for iterator in self._iterators.values():
            iterator.finalize()


class _IteratorProgressBar(util.ProgressBar):

    def __init__(self, iterator, bar_length=None, out=None):
        if not (hasattr(iterator, 'current_position') and
                hasattr(iterator, 'epoch_detail')):
            raise TypeError('Iterator must have the following attributes '
                            'to enable a progress bar: '
                            'current_position, epoch_detail')
        self._iterator = iterator
        super().__init__(bar_length=bar_length, out=out)

    def get_lines(self):
        iteration = self._iterator.current_position
        epoch_detail = self._iterator.epoch_detail
        epoch_size = getattr(self._iterator, '_epoch_size', None)

        marks = '#' * int(epoch_detail * self._bar_length)
        lines = ['validation [{}{}] {:6.2%}\n'.format(
            marks, '.' * (self._bar_length - len(marks)), epoch_detail)]
        if epoch_size:
            lines.append('{:10} / {} iterations\n'.format(
                iteration, epoch_size))
        else:
            lines.append('{:10} iterations\n'.format(iteration))

        speed_t, speed_e = self.update_speed(iteration, epoch_detail)
        estimated_time = (1.0 - epoch_detail) / speed_e
        lines.append('{:10.5g} iters/sec. Estimated time to finish: {}.\n'
                     .format(speed_t,
                             datetime.timedelta(seconds=estimated_time)))
        return lines
