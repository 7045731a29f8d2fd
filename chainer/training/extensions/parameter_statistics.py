"""An extension that reports statistics of parameters and gradients."""

import numpy

from chainer import backend
from chainer import reporter
from chainer.training import extension
from chainer.training import util as trigger_util
from chainer import variable


_PERCENTILE_SIGMAS = (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87)


def _mean(x):
    return backend.get_array_module(x).mean(x)


def _std(x):
    return backend.get_array_module(x).std(x)


def _min(x):
    return backend.get_array_module(x).min(x)


def _max(x):
    return backend.get_array_module(x).max(x)


def _zeros(x):
    return backend.get_array_module(x).count_nonzero(x == 0)


def _percentile(x):
    return backend.get_array_module(x).percentile(x, _PERCENTILE_SIGMAS)


_default_statistics = {
    'mean': _mean,
    'std': _std,
    'min': _min,
    'max': _max,
    'zeros': _zeros,
    'percentile': _percentile,
}


class ParameterStatistics(extension.Extension):
    """Trainer extension that reports statistics of parameters.

    At each call it computes every statistic function on the flattened
    data and/or gradient of every parameter of the links and adds the
    results to a running summary; when ``trigger`` fires it reports the
    means and starts over. The keys are
    ``'{prefix}/{link name}{param path}/{data|grad}/{function name}'``
    (e.g. ``'predictor/l1/W/data/mean'`` for a link named
    ``'predictor'``), followed by ``/0``, ``/1``, ... when a function
    returns several values.

    The default statistics are ``mean``, ``std``, ``min``, ``max``,
    ``zeros`` (the count of zeros) and ``percentile`` (at 0.13, 2.28,
    15.87, 50, 84.13, 97.72 and 99.87).

    Args:
        links (~chainer.Link or iterable of ~chainer.Link): The links; their
            ``name`` attribute starts the keys.
        statistics (dict or 'default'): Functions by name, each taking a
            1-d array and returning a number or an array; ``'default'`` for
            the defaults, ``None`` for none.
        report_params (bool): Report statistics of the parameter values.
        report_grads (bool): Report statistics of the gradients.
        prefix (str): Prefix of the keys.
        trigger: When to report: a trigger or a ``(period, unit)`` tuple.
        skip_nan_params (bool): Report NaN without computing anything for
            an array that contains NaN.
    """

    default_name = 'parameter_statistics'
    priority = extension.PRIORITY_WRITER

    report_key_template = ('{prefix}{link_name}{param_name}/{attr_name}/'
                           '{function_name}')

    default_statistics = _default_statistics

    def __init__(self, links, statistics='default',
                 report_params=True, report_grads=True, prefix=None,
                 trigger=(1, 'epoch'), skip_nan_params=False):
        if not isinstance(links, (list, tuple)):
            links = links,
        self._links = links

        if statistics is None:
            statistics = {}
        elif isinstance(statistics, str) and statistics == 'default':
            statistics = self.default_statistics
        self._statistics = dict(statistics)

        attrs = []
        if report_params:
            attrs.append('data')
        if report_grads:
            attrs.append('grad')
        self._attrs = attrs

        self._prefix = prefix
        self._trigger = trigger_util.get_trigger(trigger)
        self._summary = reporter.DictSummary()
        self._skip_nan_params = skip_nan_params

    def __call__(self, trainer):
        """Adds the current statistics to the summary; reports the means
        when the trigger fires."""
        prefix = self._prefix + '/' if self._prefix else ''
        array_types = variable._ARRAY_TYPES
        statistics = {}
        for link in self._links:
            link_name = getattr(link, 'name', 'None')
            for param_name, param in link.namedparams():
                for attr_name in self._attrs:
                    for function_name, function in self._statistics.items():
                        values = getattr(param, attr_name).ravel()
                        if self._skip_nan_params and backend.get_array_module(
                                values).isnan(values).any():
                            value = numpy.nan
                        else:
                            value = function(values)
                        key = self.report_key_template.format(
                            prefix=prefix, link_name=link_name,
                            param_name=param_name, attr_name=attr_name,
                            function_name=function_name)
                        if isinstance(value, array_types) and value.size > 1:
                            for i, v in enumerate(value):
                                statistics['{}/{}'.format(key, i)] = v
                        else:
                            statistics[key] = value
        self._summary.add(statistics)

        if self._trigger(trainer):
            reporter.report(self._summary.compute_mean())
            self._summary = reporter.DictSummary()

    def register_statistics(self, name, function):
        """Adds a statistic.

        Args:
            name (str): Its name, used in the keys.
            function: Takes a 1-d array and returns a number or an array.
        """
        self._statistics[name] = function
