"""An extension that writes the mean of observed values to a JSON log."""

import json
import os
import shutil
import warnings

from chainer import reporter
from chainer import serializer as serializer_module
from chainer.training import extension
from chainer.training import util as trigger_util
from chainer import utils
from chainer.utils import argument


class LogReport(extension.Extension):
    """__init__(keys=None, trigger=(1, 'epoch'), postprocess=None, \
filename='log')

    Trainer extension that logs the mean of observed values.

    Called every iteration, it adds the trainer's observation to a running
    :class:`~chainer.DictSummary`. When ``trigger`` fires (and once before
    training if the extension is called then) it appends the means, plus
    ``'epoch'``, ``'iteration'`` and ``'elapsed_time'``, to :attr:`log`,
    writes the whole log as a JSON list to ``filename`` in the output
    directory, and starts a new summary.

    Args:
        keys (iterable of str): Observation keys to log; all if ``None``.
        trigger: When to emit an entry: a trigger or a ``(period, unit)``
            tuple.
        postprocess: Called with each entry (a dict) before it is stored;
            it may modify it.
        filename (str): Name of the log file; a format string that gets the
            entry's keys (e.g. ``'log_{iteration}'``). ``None`` writes no
            file. ``log_name`` is an old alias.
    """

    def __init__(self, keys=None, trigger=(1, 'epoch'), postprocess=None,
                 filename=None, **kwargs):
        log_name, = argument.parse_kwargs(kwargs, ('log_name', 'log'))
        if filename is None:
            filename = log_name

        self._keys = keys
        self._trigger = trigger_util.get_trigger(trigger)
        self._postprocess = postprocess
        self._log = []
        self._log_name = filename
        self._init_summary()

    def __call__(self, trainer):
        observation = trainer.observation
        if self._keys is None:
            self._summary.add(observation)
        else:
            self._summary.add({key: observation[key] for key in self._keys
                               if key in observation})

        if not (trainer.is_before_training or self._trigger(trainer)):
            return

        entry = {name: float(value)
                 for name, value in self._summary.compute_mean().items()}
        updater = trainer.updater
        entry['epoch'] = updater.epoch
        entry['iteration'] = updater.iteration
        entry['elapsed_time'] = trainer.elapsed_time
        if self._postprocess is not None:
            self._postprocess(entry)
        self._log.append(entry)

        if self._log_name is not None:
            self._write(trainer.out, self._log_name.format(**entry))
        self._init_summary()

    def _write(self, out, log_name):
        # Written aside and moved, so that a reader never sees half a file.
        with utils.tempdir(prefix=log_name, dir=out) as tempd:
            path = os.path.join(tempd, 'log.json')
            with open(path, 'w') as f:
                json.dump(self._log, f, indent=4)
            shutil.move(path, os.path.join(out, log_name))

    @property
    def log(self):
        """The list of entries emitted so far."""
        return self._log

    def serialize(self, serializer):
        """Saves or loads the trigger, the running summary and the log."""
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])

        try:
            self._summary.serialize(serializer['_summary'])
        except KeyError:
            warnings.warn('The statistics are not saved.')

        if isinstance(serializer, serializer_module.Serializer):
            serializer('_log', json.dumps(self._log))
        else:
            self._log = json.loads(serializer('_log', ''))

    def _init_summary(self):
        self._summary = reporter.DictSummary()
