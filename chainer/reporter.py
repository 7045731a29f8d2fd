"""Reporter: collects observed values (losses, accuracies) by name."""

import collections
import contextlib
import copy
import json
import threading
import warnings

import numpy

from chainer import backend
from chainer import configuration
from chainer import serializer as serializer_module
from chainer import variable


_thread_local = threading.local()


def _detach(value):
    # A reported variable is kept without its graph, unless asked otherwise.
    if isinstance(value, variable.Variable):
        return copy.copy(value)
    return value


def _get_reporters():
    try:
        return _thread_local.reporters
    except AttributeError:
        reporters = _thread_local.reporters = []
        return reporters


class Reporter:
    """Collects the values that observers report, each under a name.

    Observers (typically links) are registered with a name; a value
    reported with an observer is stored under ``'<observer name>/<key>'``.
    While a reporter is active (``with reporter:`` or :meth:`scope`), the
    module function :func:`report` reports to it.

    Attributes:
        observation (dict): The values reported in the current scope.

    Example:
        >>> model = chainer.Link()
        >>> reporter = chainer.Reporter()
        >>> reporter.add_observer('main', model)
        >>> observation = {}
        >>> with reporter.scope(observation):
        ...     chainer.report({'loss': 0.5}, model)
        >>> observation
        {'main/loss': 0.5}
    """

    def __init__(self):
        self._observer_names = {}
        self.observation = {}

    def __enter__(self):
        _get_reporters().append(self)

    def __exit__(self, exc_type, exc_value, traceback):
        _get_reporters().pop()

    @contextlib.contextmanager
    def scope(self, observation):
        """Makes the reporter current and collects into ``observation``.

        Args:
            observation (dict): The dictionary reported values go into.
        """
        old = self.observation
        self.observation = observation
        self.__enter__()
        try:
            yield
        finally:
            self.__exit__(None, None, None)
            self.observation = old

    def add_observer(self, name, observer):
        """Registers an observer under a name.

        Args:
            name (str): The prefix of the values it reports.
            observer: Any object (typically a link).
        """
        self._observer_names[id(observer)] = name

    def add_observers(self, prefix, observers):
        """Registers ``(name, observer)`` pairs with a common prefix.

        Args:
            prefix (str): Prepended to each name.
            observers: Iterable of ``(name, observer)`` pairs, such as
                ``link.namedlinks()``.
        """
        for name, observer in observers:
            self._observer_names[id(observer)] = prefix + name

    def report(self, values, observer=None):
        """Stores values in the current observation.

        Variables are stored without their graph unless
        ``chainer.config.keep_graph_on_report`` is set.

        Args:
            values (dict): Values by key.
            observer: A registered observer; its name prefixes the keys.
        """
        if not configuration.config.keep_graph_on_report:
            values = {key: _detach(value) for key, value in values.items()}
        if observer is None:
            self.observation.update(values)
            return
        name = self._observer_names.get(id(observer))
        if name is None:
            raise KeyError(
                'Given observer is not registered to the reporter.')
        for key, value in values.items():
            self.observation['{}/{}'.format(name, key)] = value


def get_current_reporter():
    """Returns the reporter active in the current thread."""
    return _get_reporters()[-1]


def report(values, observer=None):
    """Reports values to the current reporter; does nothing without one.

    Args:
        values (dict): Values by key.
        observer: A registered observer whose name prefixes the keys.
    """
    reporters = _get_reporters()
    if reporters:
        reporters[-1].report(values, observer)


@contextlib.contextmanager
def report_scope(observation):
    """Makes the current reporter collect into ``observation`` for a while.

    Args:
        observation (dict): The dictionary reported values go into.
    """
    current = _get_reporters()[-1]
    old = current.observation
    current.observation = observation
    try:
        yield
    finally:
        current.observation = old


def _is_numpy(x):
    return isinstance(x, (numpy.ndarray, numpy.generic))


def _numpy1_operands(value, weight):
    # NumPy 1 computed a Python scalar with a NumPy scalar (or 0-d array)
    # at the Python scalar's full precision (int64, float64); NumPy 2 keeps
    # the NumPy dtype. Making the Python operand a NumPy one restores the
    # result Chainer gave under NumPy 1.
    if _is_numpy(value) and not _is_numpy(weight):
        weight = numpy.asarray(weight)
    elif _is_numpy(weight) and not _is_numpy(value):
        value = numpy.asarray(value)
    return value, weight


def _numpy1_term(term):
    # A NumPy term added to the Python float sum gave at least float64.
    if _is_numpy(term):
        return term.astype(numpy.result_type(term.dtype, numpy.float64))
    return term


class Summary:
    """Running weighted sum and sum of squares of a scalar series.

    The sums start as the Python float ``0.0``, so the mean of an empty
    summary raises ``ZeroDivisionError``. Values from NumPy are summed in
    (at least) float64, as Chainer did under NumPy 1.
    """

    def __init__(self):
        self._x = 0.0
        self._x2 = 0.0
        self._n = 0

    def add(self, value, weight=1):
        """Adds a value.

        Args:
            value: A scalar or a 0-d array (NumPy or CuPy).
            weight: Its weight.
        """
        v, w = _numpy1_operands(value, weight)
        with backend.using_device(backend.get_device_from_array(value)):
            self._x += _numpy1_term(w * v)
            self._x2 += _numpy1_term(w * v * v)
            self._n += weight

    def compute_mean(self):
        """Returns the weighted mean of the added values."""
        x = self._x
        with backend.using_device(backend.get_device_from_array(x)):
            return x / self._n

    def make_statistics(self):
        """Returns the weighted mean and standard deviation."""
        x, n = self._x, self._n
        xp = backend.get_array_module(x)
        with backend.using_device(backend.get_device_from_array(x)):
            mean = x / n
            var = self._x2 / n - mean * mean
            return mean, xp.sqrt(var)

    def serialize(self, serializer):
        """Saves or loads the running sums."""
        try:
            self._x = serializer('_x', self._x)
            self._x2 = serializer('_x2', self._x2)
            self._n = serializer('_n', self._n)
        except KeyError:
            warnings.warn('The previous statistics are not saved.')


class DictSummary:
    """A :class:`Summary` for each key of the dictionaries added."""

    def __init__(self):
        self._summaries = collections.defaultdict(Summary)

    def add(self, d):
        """Adds the scalar entries of a dictionary.

        Entries that are not scalars (in the sense of
        :func:`numpy.isscalar`) nor 0-d arrays are ignored; a string is a
        scalar, and adding it fails as in Chainer 7.8. An entry may be a
        ``(value, weight)`` pair.

        Args:
            d (dict): Values by key.
        """
        summaries = self._summaries
        for key, value in d.items():
            weight = 1
            if isinstance(value, tuple):
                value, weight = value
                if isinstance(weight, variable.Variable):
                    weight = weight.array
                if not numpy.isscalar(weight) \
                        and getattr(weight, 'ndim', -1) != 0:
                    raise ValueError(
                        'Given weight to {} was not scalar.'.format(key))
            if isinstance(value, variable.Variable):
                value = value.array
            if numpy.isscalar(value) or getattr(value, 'ndim', -1) == 0:
                summaries[key].add(value, weight=weight)

    def compute_mean(self):
        """Returns the mean of each key."""
        return {name: summary.compute_mean()
                for name, summary in self._summaries.items()}

    def make_statistics(self):
        """Returns the mean of each key and its std as ``'<key>.std'``."""
        stats = {}
        for name, summary in self._summaries.items():
            mean, std = summary.make_statistics()
            stats[name] = mean
            stats[name + '.std'] = std
        return stats

    def serialize(self, serializer):
        """Saves or loads the summaries and their names."""
        if isinstance(serializer, serializer_module.Serializer):
            names = list(self._summaries.keys())
            serializer('_names', json.dumps(names))
            for index, name in enumerate(names):
                self._summaries[name].serialize(
                    serializer['_summaries'][str(index)])
            return
        self._summaries.clear()
        try:
            names = json.loads(serializer('_names', ''))
        except KeyError:
            warnings.warn('The names of statistics are not saved.')
            return
        for index, name in enumerate(names):
            self._summaries[name].serialize(
                serializer['_summaries'][str(index)])
