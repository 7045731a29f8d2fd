"""Link hook measuring the time the forward method of each link takes."""

import sys
import time

import numpy

from chainer.backends import cuda
from chainer.function_hooks import _report
from chainer import link_hook


class TimerHook(link_hook.LinkHook):
    """Link hook measuring the elapsed time of the forward calls of links.

    On the CPU the time is taken with :func:`time.perf_counter`, on the GPU
    with CUDA events around the call. A link called inside another one (a
    child of a chain) is recorded too, but only outermost calls add to
    :meth:`total_time`.

    .. admonition:: Example

       >>> model = L.Linear(3, 2)
       >>> hook = TimerHook()
       >>> with hook:
       ...     y = model(np.ones((1, 3), np.float32))
       >>> hook.print_report()  # doctest: +SKIP
       LinkName  ElapsedTime  Occurrence
         Linear     45.32us           1

    Attributes:
        call_history (list): ``(link_class_name, elapsed_seconds)`` pairs
            in the order the calls finished.
        table (dict): Multipliers from seconds to the supported units.
    """

    name = 'TimerHook'
    table = {'sec': 1, 'ms': 10 ** 3, 'us': 10 ** 6, 'ns': 10 ** 9}

    def __init__(self):
        self.call_history = []
        self._running_stack = []
        self._depth = 0
        self._total_time = 0

    def forward_preprocess(self, args):
        self.xp = args.link.xp
        if self.xp is numpy:
            self._running_stack.append(time.perf_counter())
        else:
            start = cuda.Event()
            start.record()
            self._running_stack.append(start)
        self._depth += 1

    def forward_postprocess(self, args):
        link = args.link
        assert link.xp == self.xp
        start = self._running_stack.pop()
        if self.xp is numpy:
            elapsed_time = time.perf_counter() - start
        else:
            stop = cuda.Event()
            stop.record()
            stop.synchronize()
            elapsed_time = cuda.cupy.cuda.get_elapsed_time(start, stop) / 1000
        self.call_history.append((link.__class__.__name__, elapsed_time))
        assert self._depth > 0
        self._depth -= 1
        if self._depth == 0:
            self._total_time += elapsed_time

    def total_time(self):
        """Returns the total elapsed time of outermost calls in seconds."""
        return self._total_time

    def summary(self):
        """Returns the elapsed time and number of calls of each link class.

        Returns:
            dict: Maps each link class name, in order of first call, to a
            dict with ``'elapsed_time'`` (seconds) and ``'occurrence'``.
        """
        summary = {}
        for link_name, elapsed_time in self.call_history:
            record = summary.setdefault(
                link_name, {'elapsed_time': 0, 'occurrence': 0})
            record['elapsed_time'] += elapsed_time
            record['occurrence'] += 1
        return summary

    def print_report(self, unit='auto', file=sys.stdout):
        """Prints the summary as a table.

        Args:
            unit (str): Unit of the times: ``'sec'``, ``'ms'``, ``'us'``,
                ``'ns'``, ``'auto'`` (the unit that suits the largest time,
                for all rows) or ``'auto_foreach'`` (the unit that suits
                each row).
            file: A writable text stream.
        """
        summary = self.summary()
        times = [record['elapsed_time'] for record in summary.values()]
        counts = [str(record['occurrence']) for record in summary.values()]
        _report.write_table([
            ['LinkName'] + list(summary),
            ['ElapsedTime'] + _report.format_quantities(
                times, list(self.table.items()), unit),
            ['Occurrence'] + counts,
        ], file)
