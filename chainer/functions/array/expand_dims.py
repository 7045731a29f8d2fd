from chainer import backend
from chainer.functions.array import reshape
from chainer import function_node
from chainer.utils import type_check


class ExpandDims(function_node.FunctionNode):

    """Inserts an axis of length one into an array."""

    def __init__(self, axis):
        self.axis = int(axis)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(-x_type.ndim - 1 <= axis, axis <= x_type.ndim)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.expand_dims(x, self.axis),

    def backward(self, indexes, grad_outputs):
        return reshape.reshape(grad_outputs[0], self.inputs[0].shape),


def expand_dims(x, axis):
    """Inserts an axis of length one into a variable.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        axis (int): The position of the new axis in the output, from
            ``-x.ndim - 1`` to ``x.ndim``.

    Returns:
        ~chainer.Variable: A view of ``x`` with the new axis.

    .. admonition:: Example

        >>> x = np.array([1, 2, 3])
        >>> F.expand_dims(x, axis=0).shape
        (1, 3)
        >>> F.expand_dims(x, axis=-1).shape
        (3, 1)

    """
    y, = ExpandDims(axis).apply((x,))
    return y
