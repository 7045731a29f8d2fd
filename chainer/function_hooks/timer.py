"""Function hook measuring the time each function takes."""

from chainer import backend, function_hook
from chainer.function_hooks import _timing


class TimerHook(_timing.Timer, function_hook.FunctionHook):
    """Function hook that records how long each function call takes.

    Each forward and backward call of a function is timed: on the CPU with
    :func:`time.perf_counter`, on the GPU with CUDA events around the call.
    A function called inside another one (for instance by its backward) is
    recorded on its own as well, but only outermost calls add to
    :meth:`total_time`.

    .. admonition:: Example

       >>> x = chainer.Variable(np.ones((2, 3), np.float32))
       >>> from chainer.function_hooks import TimerHook
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
    _name_column = 'FunctionName'

    def _preprocess(self, arrays):
        self._start(backend.get_array_module(*arrays))

    def forward_preprocess(self, function, in_data):
        self._preprocess(in_data)

    def forward_postprocess(self, function, in_data):
        self._stop(function._impl_name)

    def backward_preprocess(self, function, in_data, out_grad):
        self._preprocess(tuple(in_data) + tuple(out_grad))

    def backward_postprocess(self, function, in_data, out_grad):
        self._stop(function._impl_name)
