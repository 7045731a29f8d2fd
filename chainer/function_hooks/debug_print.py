"""Function hook printing the inputs and gradients of each function."""

import sys
import warnings

from chainer import backend, function_hook, variable


class PrintHook(function_hook.FunctionHook):
    """Function hook printing debug information of the functions it sees.

    Before each forward call it prints the function's label and a summary
    of every input array (see :meth:`chainer.Variable.debug_print`); before
    each backward call it prints the same, then a summary of every output
    gradient. Inputs the function did not retain print as ``(removed)``.

    .. admonition:: Example

       >>> x = chainer.Variable(np.ones((2, 3), np.float32))
       >>> with PrintHook():
       ...     y = F.relu(x)  # doctest: +SKIP
       function	ReLU
       input data
       <variable at 0x7f4ad6d7ac50>
       - device: CPU
       ...

    Args:
        sep: Deprecated; it has no effect.
        end (str): Text written after each printed item.
        file: A writable text stream.
        flush (bool): If ``True``, the stream is flushed after each call.

    """

    name = 'PrintHook'

    def __init__(self, sep=None, end='\n', file=sys.stdout, flush=True):
        if sep is not None:
            warnings.warn(
                'sep argument in chainer.function_hooks.PrintHook is '
                'deprecated.', DeprecationWarning, stacklevel=2)
        self.sep = sep
        self.end = end
        self.file = file
        self.flush = flush

    def _write(self, items):
        self.file.write(''.join(item + self.end for item in items))
        if self.flush and hasattr(self.file, 'flush'):
            self.file.flush()

    def _describe(self, function, in_data):
        items = [f'function\t{function.label}', 'input data']
        for data in in_data:
            if data is None:
                items.append('(removed)')
            else:
                items.append(variable.Variable(data).debug_print())
        return items

    def forward_preprocess(self, function, in_data):
        self._write(self._describe(function, in_data))

    def backward_preprocess(self, function, in_data, out_grad):
        items = self._describe(function, in_data)
        items.append('output gradient')
        for grad in out_grad:
            if grad is None:
                holder = variable.Variable()
            else:
                xp = backend.get_array_module(grad)
                holder = variable.Variable(xp.zeros_like(grad))
                holder.grad = grad
            items.append(holder.debug_print())
        self._write(items)
