"""An extension that plots statistics of variables over training."""

import os

import numpy

from chainer import backend
from chainer.backends import cuda
from chainer import link
from chainer.training import extension
from chainer.training.extensions import _matplotlib
from chainer.training import util as trigger_util
from chainer.utils import argument
from chainer import variable


_PLOT_COLOR = (0.12156862745098039, 0.4666666666666667, 0.7058823529411765,
               1.0)  # matplotlib's 'C0', '#1f77b4'
_PLOT_COLOR_TRANS = _PLOT_COLOR[:3] + (0.2,)
_FILL_KWARGS = {'alpha': 0.2, 'linewidth': 0, 'color': _PLOT_COLOR_TRANS}


def _unpack_variables(x):
    """Returns the variables of ``x``: a variable, a link's parameters or
    those of each item of a list or tuple."""
    if isinstance(x, variable.Variable):
        return (x,)
    if isinstance(x, link.Link):
        return tuple(x.params(include_uninit=True))
    if isinstance(x, (list, tuple)):
        return sum((_unpack_variables(item) for item in x), ())
    return ()


class Reservoir:
    """Reservoir sample of fixed size over a stream of arrays.

    The first ``size`` items are kept; the ``n``-th item after them
    replaces a random kept one with probability ``size / n``, so every item
    is kept with equal probability.

    Args:
        size (int): The number of items kept.
        data_shape (tuple of int): The shape of an item.
        dtype: The dtype of the items.
    """

    def __init__(self, size, data_shape, dtype=numpy.float32):
        self.size = size
        self.data = numpy.zeros((size,) + data_shape, dtype=dtype)
        self.idxs = numpy.zeros((size,), dtype=numpy.int32)
        self.counter = 0

    def add(self, x, idx=None):
        """Offers an item with its index (its count if ``None`` or 0)."""
        if self.counter < self.size:
            self.data[self.counter] = x
            self.idxs[self.counter] = idx or self.counter
        elif numpy.random.random() < self.size / float(self.counter + 1):
            i = numpy.random.randint(self.size)
            self.data[i] = x
            self.idxs[i] = idx or self.counter
        self.counter += 1

    def get_data(self):
        """Returns the kept indices and items, sorted by index."""
        idxs = self.idxs[:min(self.counter, self.size)]
        order = numpy.argsort(idxs)
        return idxs[order], self.data[order]


class Statistician:
    """Computes the mean, standard deviation and percentiles of an array.

    Args:
        collect_mean (bool): Compute the mean.
        collect_std (bool): Compute the standard deviation.
        percentile_sigmas (float or tuple of float): The percentiles to
            compute, in ``[0, 100]``; none if empty.
    """

    def __init__(self, collect_mean, collect_std, percentile_sigmas):
        self.collect_mean = collect_mean
        self.collect_std = collect_std
        self.percentile_sigmas = percentile_sigmas

    def __call__(self, x, axis=0, dtype=None, xp=None):
        """Returns the statistics of ``x`` along ``axis`` (all if
        ``None``) as a dict with ``'mean'``, ``'std'`` and
        ``'percentile'``."""
        if axis is None:
            axis = tuple(range(x.ndim))
        elif not isinstance(axis, (tuple, list)):
            axis = axis,
        return self.collect(x, axis)

    def collect(self, x, axis):
        """Returns the statistics of ``x`` along the axes ``axis``."""
        out = {}
        if self.collect_mean:
            out['mean'] = x.mean(axis=axis)
        if self.collect_std:
            out['std'] = x.std(axis=axis)
        if self.percentile_sigmas:
            xp = backend.get_array_module(x)
            out['percentile'] = xp.percentile(
                x, self.percentile_sigmas, axis=axis)
        return out


class VariableStatisticsPlot(extension.Extension):
    """__init__(targets, max_sample_size=1000, report_data=True, \
report_grad=True, plot_mean=True, plot_std=True, \
percentile_sigmas=(0, 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87, 100), \
trigger=(1, 'epoch'), filename='statistics.png', figsize=None, \
marker=None, grid=True)

    Trainer extension that plots statistics of variables over iterations.

    At each call it computes the mean, standard deviation and percentiles
    of the data and/or gradients of all target variables together, keeps
    them in a reservoir sample of at most ``max_sample_size`` iterations,
    and when ``trigger`` fires saves a figure with one column for data and
    one for gradients: mean ± std on the first row, percentile bands on the
    second.

    It needs matplotlib: without it, each call warns and does nothing.

    Args:
        targets (~chainer.Variable, ~chainer.Link or list of them): The
            variables (or the links whose parameters) to watch.
        max_sample_size (int): The size of the reservoir sample.
        report_data (bool): Plot statistics of the data.
        report_grad (bool): Plot statistics of the gradients.
        plot_mean (bool): Plot the means.
        plot_std (bool): Plot the standard deviations.
        percentile_sigmas (float or tuple of float): The percentiles to
            plot.
        trigger: When to save the figure.
        filename (str): The image file name. ``file_name`` is an old
            alias.
        figsize (tuple): The matplotlib figure size.
        marker (str): The matplotlib marker of the lines.
        grid (bool): Draw grids.

    Raises:
        ValueError: If there is no variable, or nothing to plot.
    """

    def __init__(self, targets, max_sample_size=1000,
                 report_data=True, report_grad=True,
                 plot_mean=True, plot_std=True,
                 percentile_sigmas=(
                     0, 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87, 100),
                 trigger=(1, 'epoch'), filename=None,
                 figsize=None, marker=None, grid=True, **kwargs):
        file_name, = argument.parse_kwargs(
            kwargs, ('file_name', 'statistics.png'))
        if filename is None:
            filename = file_name

        self._vars = _unpack_variables(targets)
        if not self._vars:
            raise ValueError(
                'Need at least one variables for which to collect statistics.'
                '\nActual: 0 <= 0')
        if not any((plot_mean, plot_std, bool(percentile_sigmas))):
            raise ValueError('Nothing to plot')

        self._keys = []
        if report_data:
            self._keys.append('data')
        if report_grad:
            self._keys.append('grad')
        self._report_data = report_data
        self._report_grad = report_grad

        self._statistician = Statistician(
            collect_mean=plot_mean, collect_std=plot_std,
            percentile_sigmas=percentile_sigmas)
        self._plot_mean = plot_mean
        self._plot_std = plot_std
        self._plot_percentile = bool(percentile_sigmas)

        self._trigger = trigger_util.get_trigger(trigger)
        self._filename = filename
        self._figsize = figsize
        self._marker = marker
        self._grid = grid

        if not self._plot_percentile:
            n_percentile = 0
        elif isinstance(percentile_sigmas, (list, tuple)):
            n_percentile = len(percentile_sigmas)
        else:
            n_percentile = 1
        self._data_shape = (
            len(self._keys), int(plot_mean) + int(plot_std) + n_percentile)
        self._samples = Reservoir(max_sample_size, data_shape=self._data_shape)

    @staticmethod
    def available():
        """Returns whether matplotlib is available (warns if not)."""
        return _matplotlib.check_available()

    def __call__(self, trainer):
        if not self.available():
            return

        xp = backend.get_array_module(self._vars[0].array)
        stats = xp.zeros(self._data_shape, dtype=xp.float32)
        for i, key in enumerate(self._keys):
            xs = [x.ravel() for x in (getattr(var, key, None)
                                      for var in self._vars)
                  if x is not None]
            if not xs:
                continue
            stat_dict = self._statistician(
                xp.concatenate(xs, axis=0), axis=0, xp=xp)
            stat_list = []
            if self._plot_mean:
                stat_list.append(xp.atleast_1d(stat_dict['mean']))
            if self._plot_std:
                stat_list.append(xp.atleast_1d(stat_dict['std']))
            if self._plot_percentile:
                stat_list.append(xp.atleast_1d(stat_dict['percentile']))
            stats[i] = xp.concatenate(stat_list, axis=0)

        if xp is not numpy:
            stats = cuda.to_cpu(stats)
        self._samples.add(stats, idx=trainer.updater.iteration)

        if self._trigger(trainer):
            import matplotlib.pyplot as plt
            self.save_plot_using_module(
                os.path.join(trainer.out, self._filename), plt)

    def save_plot_using_module(self, file_path, plt):
        """Draws the sampled statistics with ``plt`` and saves the figure.

        Args:
            file_path (str): The image path.
            plt: The :mod:`matplotlib.pyplot` module.
        """
        nrows = int(self._plot_mean or self._plot_std) \
            + int(self._plot_percentile)
        ncols = len(self._keys)

        fig, axes = plt.subplots(
            nrows, ncols, figsize=self._figsize, sharex=True)
        axes = numpy.asarray(axes).reshape(nrows, ncols)

        idxs, data = self._samples.get_data()
        offset = int(self._plot_mean) + int(self._plot_std)
        n_percentile = data.shape[-1] - offset
        n_half = n_percentile // 2
        odd = n_percentile % 2 == 1

        for col in range(ncols):
            row = 0
            ax = axes[row, col]
            ax.set_title(self._keys[col])

            if self._plot_mean or self._plot_std:
                if self._plot_mean and self._plot_std:
                    ax.errorbar(
                        idxs, data[:, col, 0], data[:, col, 1],
                        color=_PLOT_COLOR, ecolor=_PLOT_COLOR_TRANS,
                        label='mean, std', marker=self._marker)
                else:
                    label = 'mean' if self._plot_mean else 'std'
                    ax.plot(idxs, data[:, col, 0], color=_PLOT_COLOR,
                            label=label, marker=self._marker)
                row += 1

            if self._plot_percentile:
                ax = axes[row, col]
                for i in range(n_half + 1):
                    if odd and i == n_half:
                        ax.plot(idxs, data[:, col, offset + i],
                                color=_PLOT_COLOR, label='percentile',
                                marker=self._marker)
                    else:
                        label = 'percentile' if i == n_half else '_nolegend_'
                        ax.fill_between(
                            idxs, data[:, col, offset + i],
                            data[:, col, -i - 1], label=label,
                            **_FILL_KWARGS)
                    ax.set_xlabel('iteration')

        for ax in axes.ravel():
            ax.legend()
            if self._grid:
                ax.grid()
                ax.set_axisbelow(True)

        fig.savefig(file_path)
        plt.close()
