import numpy

import chainer
from chainer import configuration
from chainer import function_node
from chainer.utils import type_check


_config_local, _global_settings = configuration._entry_tables()


class Cast(function_node.FunctionNode):

    """Casts an array to a given dtype; the gradient is cast back."""

    def __init__(self, typ):
        self.type = typ

    check_type_forward = type_check._argument_check(('x',))

    def forward(self, inputs):
        x, = inputs
        self._in_type = x.dtype.type
        return x.astype(self.type, copy=False),

    def backward(self, indexes, grad_outputs):
        if numpy.dtype(self._in_type).kind != 'f':
            return None,
        return cast(grad_outputs[0], self._in_type),


def cast(x, typ):
    """Converts the elements of the input to another dtype.

    Outside of backprop mode, casting to the dtype that ``x`` already has
    returns ``x`` as a variable without a new node.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        typ (:class:`str` of dtype or :class:`numpy.dtype`): The dtype to
            cast to.

    Returns:
        ~chainer.Variable: A variable holding the cast array.

    .. admonition:: Example

        >>> x = np.arange(0, 3, dtype=np.float64)
        >>> F.cast(x, np.float32).dtype
        dtype('float32')
        >>> F.cast(x, 'float16').dtype
        dtype('float16')

    """
    # Under backprop a Cast node is applied even to the same dtype, as in
    # Chainer (function hooks see it); the gradients of the linear layers
    # read this often, hence the fast reading of the configuration.
    if x.dtype == typ and not _config_local.__dict__.get(
            'enable_backprop', _global_settings['enable_backprop']):
        return chainer.as_variable(x)
    return Cast(typ).apply((x,))[0]
