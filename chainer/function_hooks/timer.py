"""Function hook measuring the time each function takes."""

import sys
import time

import numpy

from chainer import backend, function_hook
from chainer.backends import cuda
from chainer.function_hooks import _report


class TimerHook(function_hook.FunctionHook):
    """Function hook that records how long each function call takes.

    Each forward and backward call of a function is timed: on the CPU with
    :func:`time.perf_counter`, on the GPU with CUDA events around the call.
    A function called inside another one (for instance by its backward) is
    recorded on its own as well, but only outermost calls add to
    :meth:`total_time`.

    .. admonition:: Example

       >>> x = chainer.Variable(np.ones((2, 3), np.float32))
       >>> hook = TimerHook()
       >>> with hook:
       ...     y = F.sum(F.relu(x))
       >>> hook.print_report()  # doctest: +SKIP
       FunctionName  ElapsedTime  Occurrence
               ReLU     33.27us           1
                Sum     24.16us           1

    Attributes:
        call_history (list): ``(function_name, elapsed_seconds)`` pairs in
            the order the calls finished.
        table (dict): Multipliers from seconds to the supported units.

    """

    name = 'TimerHook'
    table = {'sec': 1, 'ms': 1000, 'us': 1000 ** 2, 'ns': 1000 ** 3}

    def __init__(self):
        self.call_history = []
        self._running_stack = []
        self._total_time = 0

    def _preprocess(self, arrays):
        if backend.get_array_module(*arrays) is numpy:
            self._running_stack.append(time.perf_counter())
        else:
            start = cuda.cupy.cuda.Event()
            start.record()
            self._running_stack.append(start)

    def _postprocess(self, function):
        start = self._running_stack.pop()
        if isinstance(start, float):
            elapsed_time = time.perf_counter() - start
        else:
            stop = cuda.cupy.cuda.Event()
            stop.record()
            stop.synchronize()
            elapsed_time = cuda.cupy.cuda.get_elapsed_time(start, stop) / 1000
        self.call_history.append((function._impl_name, elapsed_time))
        if not self._running_stack:
            self._total_time += elapsed_time

    def forward_preprocess(self, function, in_data):
        self._preprocess(in_data)

    def forward_postprocess(self, function, in_data):
        self._postprocess(function)

    def backward_preprocess(self, function, in_data, out_grad):
        self._preprocess(tuple(in_data) + tuple(out_grad))

    def backward_postprocess(self, function, in_data, out_grad):
        self._postprocess(function)

    def total_time(self):
        """Returns the total elapsed time of outermost calls in seconds."""
        return self._total_time

    def summary(self):
        """Returns the elapsed time and number of calls of each function.

        Returns:
            dict: Maps each function name, in order of first call, to a dict
            with ``'elapsed_time'`` (seconds) and ``'occurrence'``.

        """
        summary = {}
        for function_name, elapsed_time in self.call_history:
            record = summary.setdefault(
                function_name, {'elapsed_time': 0, 'occurrence': 0})
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
        names = list(summary)
        times = [record['elapsed_time'] for record in summary.values()]
        counts = [str(record['occurrence']) for record in summary.values()]
        _report.write_table([
            ['FunctionName'] + names,
            ['ElapsedTime'] + _report.format_quantities(
                times, list(self.table.items()), unit),
            ['Occurrence'] + counts,
        ], file)
