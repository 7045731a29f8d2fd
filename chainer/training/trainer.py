"""The training loop."""

import collections
import os
import sys
import time
import traceback

from chainer import reporter as reporter_module
from chainer import serializer as serializer_module
from chainer.training import extension as extension_module
from chainer.training import util as trigger_util
from chainer.utils import argument


_get_time = time.perf_counter


class _ExtensionEntry:

    __slots__ = ('extension', 'trigger', 'priority', 'call_before_training')

    def __init__(self, extension, priority, trigger, call_before_training):
        self.extension = extension
        self.trigger = trigger
        self.priority = priority
        self.call_before_training = call_before_training


class Trainer:
    """The standard training loop.

    Each iteration of :meth:`run` calls ``updater.update()`` and then, in
    descending order of priority (registration order among equals), each
    extension whose trigger fires. The loop ends when ``stop_trigger``
    fires. Values reported during an iteration (by the updater, the model
    or extensions) go into a fresh :attr:`observation` dictionary.

    The target link of each optimizer of the updater is registered to the
    :attr:`reporter` as an observer named after the optimizer (``'main'``),
    and its descendants as ``'<optimizer name>/<link path>'``.

    The trainer can be saved and loaded with the serializers (for example
    with :func:`~chainer.training.extensions.snapshot`); the state of the
    updater, of the stop trigger, of the extensions and of their triggers
    and the elapsed time are kept.

    Args:
        updater (~chainer.training.Updater): The updater.
        stop_trigger: When to stop; a trigger or a ``(period, unit)``
            tuple. ``None`` never stops.
        out (str): The output directory.
        extensions (list): Extensions to register with default settings.

    Attributes:
        updater: The updater.
        stop_trigger: The stop trigger.
        observation (dict): The values reported in the current (or last)
            iteration.
        out (str): The output directory.
        reporter (~chainer.Reporter): The reporter of the training loop.

    Example:
        With an ``updater`` set up on an iterator and an optimizer::

            trainer = training.Trainer(updater, (10, 'epoch'), out='result')
            trainer.extend(extensions.LogReport())
            trainer.run()
    """

    def __init__(self, updater, stop_trigger=None, out='result',
                 extensions=None):
        self.updater = updater
        self.stop_trigger = trigger_util.get_trigger(stop_trigger)
        self.observation = {}
        self.out = out

        reporter = reporter_module.Reporter()
        for name, optimizer in updater.get_all_optimizers().items():
            reporter.add_observer(name, optimizer.target)
            reporter.add_observers(
                name, optimizer.target.namedlinks(skipself=True))
        self.reporter = reporter

        self._done = False
        self._extensions = collections.OrderedDict()
        self._start_at = None
        self._snapshot_elapsed_time = 0.0
        self._final_elapsed_time = None

        updater.connect_trainer(self)
        for ext in extensions or ():
            self.extend(ext)

    @property
    def is_before_training(self):
        """Whether no update has run yet (the updater's iteration is 0)."""
        return self.updater.iteration == 0

    @property
    def elapsed_time(self):
        """Seconds of training so far, including those before a snapshot.

        Raises:
            RuntimeError: If the training has not started.
        """
        if self._done:
            return self._final_elapsed_time
        if self._start_at is None:
            raise RuntimeError('training has not been started yet')
        return _get_time() - self._start_at + self._snapshot_elapsed_time

    def extend(self, extension, name=None, trigger=None, priority=None,
               *, call_before_training=False, **kwargs):
        """Registers an extension.

        A name already taken gets a suffix ``_1``, ``_2``, ...; the final
        name is set to ``extension.name``.

        Args:
            extension: The extension, any callable taking the trainer.
            name (str): Its name; by default its ``name``, ``default_name``
                or ``__name__`` attribute.
            trigger: When to call it: a trigger or a ``(period, unit)``
                tuple. By default its ``trigger`` attribute, or every
                iteration.
            priority (int): Extensions of higher priority run first. By
                default its ``priority`` attribute, or
                :data:`~chainer.training.PRIORITY_READER`.
            call_before_training (bool): Also call it once before the
                first update.

        Raises:
            TypeError: If no name can be found.
            ValueError: If the name is ``'training'``.
        """
        if kwargs:
            argument.check_unexpected_kwargs(
                kwargs,
                invoke_before_training='invoke_before_training has been '
                'removed since Chainer v2.0.0. Use initializer= instead.')
            argument.assert_kwargs_empty(kwargs)

        if name is None:
            name = _default_name(extension)
        if name == 'training':
            raise ValueError(
                'the name "training" is prohibited as an extension name')

        if trigger is None:
            trigger = getattr(extension, 'trigger', (1, 'iteration'))
        trigger = trigger_util.get_trigger(trigger)

        if priority is None:
            priority = getattr(
                extension, 'priority', extension_module.PRIORITY_READER)

        unique_name = name
        ordinal = 0
        while unique_name in self._extensions:
            ordinal += 1
            unique_name = '%s_%d' % (name, ordinal)

        extension.name = unique_name
        self._extensions[unique_name] = _ExtensionEntry(
            extension, priority, trigger, call_before_training)

    def get_extension(self, name):
        """Returns the extension registered under ``name``.

        Raises:
            ValueError: If there is none.
        """
        entry = self._extensions.get(name)
        if entry is None:
            raise ValueError('extension %s not found' % name)
        return entry.extension

    def run(self, show_loop_exception_msg=True):
        """Runs the training loop until the stop trigger fires.

        The output directory is created, the extensions' ``initialize``
        methods run (except for those whose trigger is ``finished``), then
        the loop runs. On an exception the extensions' ``on_error``
        handlers run; the extensions and the updater are finalized in any
        case. A trainer runs once.

        Args:
            show_loop_exception_msg (bool): Print the exception raised in
                the loop to stderr before finalizing.

        Raises:
            RuntimeError: If the trainer has already run.
        """
        if self._done:
            raise RuntimeError('cannot run training loop multiple times')

        os.makedirs(self.out, exist_ok=True)

        entries = sorted(self._extensions.values(),
                         key=lambda entry: entry.priority, reverse=True)

        self._start_at = _get_time()

        for entry in entries:
            initializer = getattr(entry.extension, 'initialize', None)
            if initializer and not getattr(entry.trigger, 'finished', False):
                initializer(self)

        update = self.updater.update
        reporter = self.reporter
        stop_trigger = self.stop_trigger

        if self.is_before_training:
            self.observation = {}
            with reporter.scope(self.observation):
                for entry in entries:
                    if entry.call_before_training:
                        entry.extension(self)

        try:
            while not stop_trigger(self):
                self.observation = {}
                with reporter.scope(self.observation):
                    update()
                    for entry in entries:
                        if entry.trigger(self):
                            entry.extension(self)
        except Exception as e:
            if show_loop_exception_msg:
                _print_exception('Exception in main training loop', e)
                sys.stderr.write(
                    'Will finalize trainer extensions and updater before '
                    'reraising the exception.\n')
            for entry in entries:
                handler = getattr(entry.extension, 'on_error', None)
                if handler:
                    try:
                        handler(self, e, e.__traceback__)
                    except Exception as handler_error:
                        _print_exception(
                            'Exception in error handler', handler_error)
            raise
        finally:
            for entry in entries:
                finalize = getattr(entry.extension, 'finalize', None)
                if finalize:
                    finalize()
            self.updater.finalize()

        self._final_elapsed_time = self.elapsed_time
        self._done = True

    def serialize(self, serializer):
        """Saves or loads the state of the training loop.

        Keys: ``updater/...``, ``stop_trigger/...``,
        ``extensions/<name>/...``, ``extension_triggers/<name>/...`` and
        ``_snapshot_elapsed_time``.
        """
        self.updater.serialize(serializer['updater'])
        if hasattr(self.stop_trigger, 'serialize'):
            self.stop_trigger.serialize(serializer['stop_trigger'])

        extensions = serializer['extensions']
        triggers = serializer['extension_triggers']
        for name, entry in self._extensions.items():
            if hasattr(entry.extension, 'serialize'):
                entry.extension.serialize(extensions[name])
            if hasattr(entry.trigger, 'serialize'):
                entry.trigger.serialize(triggers[name])

        if isinstance(serializer, serializer_module.Serializer):
            serializer('_snapshot_elapsed_time', self.elapsed_time)
        else:
            self._snapshot_elapsed_time = serializer(
                '_snapshot_elapsed_time', 0.0)


def _default_name(extension):
    for attr in ('name', 'default_name', '__name__'):
        name = getattr(extension, attr, None)
        if name is not None:
            return name
    raise TypeError('name is not given for the extension')


def _print_exception(title, exc):
    sys.stderr.write('{}: {}\n'.format(title, exc))
    sys.stderr.write('Traceback (most recent call last):\n')
    traceback.print_tb(exc.__traceback__)
