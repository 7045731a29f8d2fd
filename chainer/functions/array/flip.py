from chainer import function_node
from chainer.utils import type_check


def _flip(array, axis):
    # A reversed view of ``array`` along ``axis``, for any array module.
    index = [slice(None)] * array.ndim
    index[axis] = slice(None, None, -1)
    return array[tuple(index)]


class Flip(function_node.FunctionNode):

    """Reverses the order of elements of an array along an axis."""

    def __init__(self, axis):
        if not isinstance(axis, int):
            raise TypeError('axis must be int')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(x_type.ndim > 0)
        type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)

    def forward(self, inputs):
        return _flip(inputs[0], self.axis),

    def backward(self, indexes, grad_outputs):
        return Flip(self.axis).apply(grad_outputs)


def flip(x, axis):
    """Reverses the order of elements of a variable along an axis.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        axis (int): The axis to reverse.

    Returns:
        ~chainer.Variable: A reversed view of ``x``.

    .. admonition:: Example

        >>> x = np.array([[1, 2, 3], [4, 5, 6]])
        >>> F.flip(x, 1).array
        array([[3, 2, 1],
               [6, 5, 4]])

    """
    return Flip(axis).apply((x,))[0]
