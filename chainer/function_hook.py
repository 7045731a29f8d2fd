"""Function hooks: callbacks run around the forward and backward of nodes."""

import collections
import threading


_thread_local = threading.local()


def get_function_hooks():
    """Returns the function hooks registered in the current thread.

    Returns:
        collections.OrderedDict: Hooks keyed by name, in registration order.
    """
    try:
        return _thread_local.function_hooks
    except AttributeError:
        hooks = collections.OrderedDict()
        _thread_local.function_hooks = hooks
        return hooks


class FunctionHook:
    """Base class of hooks called around every function node.

    A hook registered with a ``with`` statement applies to every function
    called in the current thread while the block runs; one added by
    :meth:`chainer.FunctionNode.add_hook` applies to that node only.
    Subclasses override the callbacks they need.

    Attributes:
        name (str): Name of the hook, its key in the registry.

    Example:
        >>> class CountHook(chainer.FunctionHook):
        ...     name = 'count'
        ...     def __init__(self):
        ...         self.count = 0
        ...     def forward_preprocess(self, function, in_data):
        ...         self.count += 1
        >>> x = chainer.Variable(numpy.ones(3, numpy.float32))
        >>> with CountHook() as hook:
        ...     y = x * 2
        >>> hook.count
        1
    """

    name = 'FunctionHook'

    def __enter__(self):
        hooks = get_function_hooks()
        if self.name in hooks:
            raise KeyError('hook {} already exists'.format(self.name))
        hooks[self.name] = self
        self.added(None)
        return self

    def __exit__(self, *_):
        self.deleted(None)
        del get_function_hooks()[self.name]

    def added(self, function):
        """Called when the hook is registered.

        Args:
            function: The :class:`~chainer.FunctionNode` it was added to,
                or ``None`` when registered globally.
        """

    def deleted(self, function):
        """Called when the hook is unregistered.

        Args:
            function: The :class:`~chainer.FunctionNode` it was removed
                from, or ``None`` when unregistered globally.
        """

    def forward_preprocess(self, function, in_data):
        """Called before the forward computation of a function.

        Args:
            function: The :class:`~chainer.FunctionNode`.
            in_data (tuple of arrays): The input arrays.
        """

    def forward_postprocess(self, function, in_data):
        """Called after the forward computation of a function.

        Args:
            function: The :class:`~chainer.FunctionNode`.
            in_data (tuple of arrays): The input arrays.
        """

    def backward_preprocess(self, function, in_data, out_grad):
        """Called before the backward computation of a function.

        Args:
            function: The :class:`~chainer.FunctionNode`.
            in_data (tuple of arrays): The retained input arrays (``None``
                for those not retained).
            out_grad (tuple of arrays): The gradients of the outputs.
        """

    def backward_postprocess(self, function, in_data, out_grad):
        """Called after the backward computation of a function.

        Args:
            function: The :class:`~chainer.FunctionNode`.
            in_data (tuple of arrays): The retained input arrays.
            out_grad (tuple of arrays): The gradients of the outputs.
        """
