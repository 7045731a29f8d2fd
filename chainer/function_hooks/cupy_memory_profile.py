"""Function hook measuring the GPU memory each function takes from CuPy."""

import collections
import sys

from chainer import function_hook
from chainer.backends import cuda
from chainer.function_hooks import _report

# Whether CuPy offers memory hooks (``cupy.cuda.MemoryHook``), which the
# profile needs; ``_resolution_error`` says why not when it does not.
try:
    _MemoryHook = cuda.cupy.cuda.MemoryHook
    memory_hook_available = True
    _resolution_error = None
except AttributeError as e:
    _MemoryHook = object
    memory_hook_available = False
    _resolution_error = e


class CupyMemoryCumulativeHook(_MemoryHook):
    """CuPy memory hook adding up the bytes allocated since it was entered.

    Attributes:
        used_bytes (int): Bytes handed out by the CuPy memory pool.
        acquired_bytes (int): Bytes the memory pool took from the device.

    """

    name = 'CupyMemoryCumulativeHook'

    def __init__(self):
        self.used_bytes = 0
        self.acquired_bytes = 0

    def alloc_preprocess(self, **kwargs):
        self.acquired_bytes += kwargs['mem_size']

    def malloc_preprocess(self, **kwargs):
        self.used_bytes += kwargs['mem_size']


class CupyMemoryProfileHook(function_hook.FunctionHook):
    """Function hook measuring the GPU memory used by functions.

    For each forward and backward call it records how many bytes the call
    took from CuPy's memory pool (``used_bytes``) and how many bytes the
    pool newly took from the device for it (``acquired_bytes``). Nested
    calls are recorded on their own as well, but only outermost calls add
    to the totals. It needs CuPy.

    .. admonition:: Example

       >>> from chainer.function_hooks import CupyMemoryProfileHook
       >>> hook = CupyMemoryProfileHook()  # doctest: +SKIP
       >>> with hook:  # doctest: +SKIP
       ...     y = F.relu(x_gpu)
       >>> hook.print_report()  # doctest: +SKIP
       FunctionName  UsedBytes  AcquiredBytes  Occurrence
               ReLU     3.00KB         3.00KB           1

    Attributes:
        call_history (list): ``(function_name, used_bytes, acquired_bytes,
            depth)`` tuples in the order the calls finished; ``depth`` is
            the number of enclosing calls.

    """

    name = 'CupyMemoryProfileHook'
    _units = ('B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB')

    def __init__(self):
        cuda.check_cuda_available()
        if not memory_hook_available:
            raise RuntimeError(
                'CuPy >= 2.0 is required. {}'.format(_resolution_error))
        self.call_history = []
        self._memory_hook = CupyMemoryCumulativeHook()
        self._running_stack = []
        self._total_used_bytes = 0
        self._total_acquired_bytes = 0

    def added(self, function=None):
        self._memory_hook.__enter__()

    def deleted(self, function=None):
        self._memory_hook.__exit__()

    def _preprocess(self):
        self._running_stack.append(
            (self._memory_hook.used_bytes, self._memory_hook.acquired_bytes))

    def _postprocess(self, function):
        start_used, start_acquired = self._running_stack.pop()
        used_bytes = self._memory_hook.used_bytes - start_used
        acquired_bytes = self._memory_hook.acquired_bytes - start_acquired
        depth = len(self._running_stack)
        self.call_history.append(
            (function._impl_name, used_bytes, acquired_bytes, depth))
        if depth == 0:
            self._total_used_bytes += used_bytes
            self._total_acquired_bytes += acquired_bytes

    def forward_preprocess(self, function, in_data):
        self._preprocess()

    def forward_postprocess(self, function, in_data):
        self._postprocess(function)

    def backward_preprocess(self, function, in_data, out_grad):
        self._preprocess()

    def backward_postprocess(self, function, in_data, out_grad):
        self._postprocess(function)

    def total_used_bytes(self):
        """Returns the bytes outermost calls took from the memory pool."""
        return self._total_used_bytes

    def total_acquired_bytes(self):
        """Returns the bytes the memory pool took from the device."""
        return self._total_acquired_bytes

    def summary(self):
        """Returns the memory use and number of calls of each function.

        Nested calls are counted both on their own and inside the calls
        that contain them.

        Returns:
            collections.OrderedDict: Maps each function name, in order of
            first call, to a dict with ``'used_bytes'``,
            ``'acquired_bytes'`` and ``'occurrence'``.

        """
        summary = collections.OrderedDict()
        for name, used_bytes, acquired_bytes, _ in self.call_history:
            record = summary.setdefault(
                name, {'used_bytes': 0, 'acquired_bytes': 0,
                       'occurrence': 0})
            record['used_bytes'] += used_bytes
            record['acquired_bytes'] += acquired_bytes
            record['occurrence'] += 1
        return summary

    def print_report(self, unit='auto', file=sys.stdout):
        """Prints the summary as a table.

        Args:
            unit (str): Unit of the sizes: one of ``'B'``, ``'KB'``,
                ``'MB'``, ``'GB'``, ``'TB'``, ``'PB'``, ``'EB'``, ``'ZB'``
                (powers of 1024), ``'auto'`` (for each column, the unit
                that suits its largest size) or ``'auto_foreach'`` (the
                unit that suits each size).
            file: A writable text stream.

        """
        factors = [(name, 1024.0 ** -power)
                   for power, name in reversed(list(enumerate(self._units)))]
        summary = self.summary()
        used = [record['used_bytes'] for record in summary.values()]
        acquired = [record['acquired_bytes'] for record in summary.values()]
        counts = [str(record['occurrence']) for record in summary.values()]
        _report.write_table([
            ['FunctionName'] + list(summary),
            ['UsedBytes'] + _report.format_quantities(used, factors, unit),
            ['AcquiredBytes'] + _report.format_quantities(
                acquired, factors, unit),
            ['Occurrence'] + counts,
        ], file)
