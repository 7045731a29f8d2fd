from chainer import function_node
from chainer.utils import type_check


class Swapaxes(function_node.FunctionNode):

    """Interchanges two axes of an array."""

    def __init__(self, axis1, axis2):
        self.axis1 = axis1
        self.axis2 = axis2

    @property
    def label(self):
        return 'Swapaxes'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        for name in ('axis1', 'axis2'):
            axis = type_check.make_variable(getattr(self, name), name)
            type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)

    def forward(self, inputs):
        return inputs[0].swapaxes(self.axis1, self.axis2),

    def backward(self, indexes, grad_outputs):
        return Swapaxes(self.axis1, self.axis2).apply(grad_outputs)


def swapaxes(x, axis1, axis2):
    """Interchanges two axes of a variable.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        axis1 (int): The first axis.
        axis2 (int): The second axis.

    Returns:
        ~chainer.Variable: A view of ``x`` with the two axes swapped.

    .. admonition:: Example

        >>> x = np.zeros((2, 3, 4), np.float32)
        >>> F.swapaxes(x, 0, 2).shape
        (4, 3, 2)

    """
    y, = Swapaxes(axis1, axis2).apply((x,))
    return y
