"""The timing, summary and report shared by the two TimerHooks.

:class:`chainer.function_hooks.TimerHook` times the calls of functions
and :class:`chainer.link_hooks.TimerHook` those of link forward methods;
both record ``(name, seconds)`` pairs the same way and print the same
table, which only the title of its first column tells apart.
"""

import sys
import time

import numpy

from chainer.backends import cuda
from chainer.function_hooks import _report


class Timer:
    """Mixin recording the elapsed time of nested calls.

    A subclass calls :meth:`_start` before a call and :meth:`_stop` after
    it, and sets ``_name_column``, the title of the first column of the
    report. On the CPU the time is taken with :func:`time.perf_counter`, on
    the GPU with CUDA events around the call. Only outermost calls add to
    :meth:`total_time`.

    Attributes:
        call_history (list): ``(name, elapsed_seconds)`` pairs in the order
            the calls finished.
        table (dict): Multipliers from seconds to the supported units.
    """

    table = {'sec': 1, 'ms': 10 ** 3, 'us': 10 ** 6, 'ns': 10 ** 9}
    _name_column = None

    def __init__(self):
        self.call_history = []
        self._running_stack = []
        self._total_time = 0

    def _start(self, xp):
        if xp is numpy:
            self._running_stack.append(time.perf_counter())
        else:
            start = cuda.cupy.cuda.Event()
            start.record()
            self._running_stack.append(start)

    def _stop(self, name):
        start = self._running_stack.pop()
        if isinstance(start, float):
            elapsed_time = time.perf_counter() - start
        else:
            stop = cuda.cupy.cuda.Event()
            stop.record()
            stop.synchronize()
            elapsed_time = cuda.cupy.cuda.get_elapsed_time(start, stop) / 1000
        self.call_history.append((name, elapsed_time))
        if not self._running_stack:
            self._total_time += elapsed_time

    def total_time(self):
        """Returns the total elapsed time of outermost calls in seconds."""
        return self._total_time

    def summary(self):
        """Returns the elapsed time and number of calls of each name.

        Returns:
            dict: Maps each recorded name, in order of first call, to a dict
            with ``'elapsed_time'`` (seconds) and ``'occurrence'``.
        """
        summary = {}
        for name, elapsed_time in self.call_history:
            record = summary.setdefault(
                name, {'elapsed_time': 0, 'occurrence': 0})
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
            [self._name_column] + list(summary),
            ['ElapsedTime'] + _report.format_quantities(
                times, list(self.table.items()), unit),
            ['Occurrence'] + counts,
        ], file)
