"""An extension that plots the mean of observed values with matplotlib."""

import json
import os

import numpy

from chainer import reporter
from chainer import serializer as serializer_module
from chainer.training import extension
from chainer.training.extensions import _matplotlib
from chainer.training import util as trigger_util
from chainer.utils import argument


class PlotReport(extension.Extension):
    """__init__(y_keys, x_key='iteration', trigger=(1, 'epoch'), \
postprocess=None, filename='plot.png', marker='x', grid=True)

    Trainer extension that plots the mean of observed values.

    Like :class:`~chainer.training.extensions.LogReport`, it averages the
    observed ``y_keys`` over each interval of ``trigger``; at the end of an
    interval it adds a point ``(x, mean)`` per key, where ``x`` is the
    ``'epoch'`` or ``'iteration'`` count (``x_key``), and saves the plot of
    all points to ``filename`` in the output directory.

    It needs matplotlib: without it, it warns (at construction and at
    each call) and does nothing. Choose a matplotlib backend
    (``matplotlib.use('Agg')``) before the first call if your environment
    needs one.

    Args:
        y_keys (str or iterable of str): The observation keys to plot.
        x_key (str): ``'iteration'`` or ``'epoch'``.
        trigger: When to add points: a trigger or a ``(period, unit)``
            tuple.
        postprocess: Called as ``postprocess(figure, axes, summary)``
            before the figure is saved.
        filename (str): The image file name. ``file_name`` is an old alias.
        marker (str): The matplotlib marker; ``None`` for none.
        grid (bool): Draw a grid.
    """

    def __init__(self, y_keys, x_key='iteration', trigger=(1, 'epoch'),
                 postprocess=None, filename=None, marker='x',
                 grid=True, **kwargs):
        file_name, = argument.parse_kwargs(kwargs, ('file_name', 'plot.png'))
        if filename is None:
            filename = file_name

        _matplotlib.check_available()

        if isinstance(y_keys, str):
            y_keys = (y_keys,)
        self._x_key = x_key
        self._y_keys = y_keys
        self._trigger = trigger_util.get_trigger(trigger)
        self._file_name = filename
        self._marker = marker
        self._grid = grid
        self._postprocess = postprocess
        self._init_summary()
        self._data = {key: [] for key in y_keys}

    @staticmethod
    def available():
        """Returns whether matplotlib is available (warns if not)."""
        return _matplotlib.check_available()

    def __call__(self, trainer):
        if not self.available():
            return

        keys = self._y_keys
        observation = trainer.observation
        self._summary.add({key: observation[key] for key in keys
                           if key in observation})

        if not (trainer.is_before_training or self._trigger(trainer)):
            return
        import matplotlib.pyplot as plt

        stats = {name: float(value)
                 for name, value in self._summary.compute_mean().items()}
        updater = trainer.updater
        stats['epoch'] = updater.epoch
        stats['iteration'] = updater.iteration
        x = stats[self._x_key]
        for key in keys:
            if key in stats:
                self._data[key].append((x, stats[key]))

        figure = plt.figure()
        axes = figure.add_subplot(111)
        axes.set_xlabel(self._x_key)
        if self._grid:
            axes.grid()
        for key in keys:
            points = self._data[key]
            if points:
                points = numpy.array(points)
                axes.plot(points[:, 0], points[:, 1], marker=self._marker,
                          label=key)

        if axes.has_data():
            if self._postprocess is not None:
                self._postprocess(figure, axes, self._summary)
            legend = axes.legend(
                bbox_to_anchor=(1.05, 1), loc=2, borderaxespad=0.)
            figure.savefig(os.path.join(trainer.out, self._file_name),
                           bbox_extra_artists=(legend,), bbox_inches='tight')

        plt.close()
        self._init_summary()

    def serialize(self, serializer):
        """Saves or loads the points, as JSON under
        ``'_plot_<filename>'``."""
        key = '_plot_{}'.format(self._file_name)
        if isinstance(serializer, serializer_module.Serializer):
            serializer(key, json.dumps(self._data))
        else:
            self._data = json.loads(serializer(key, ''))

    def _init_summary(self):
        self._summary = reporter.DictSummary()
