from chainer import backend
from chainer.functions.array import reshape
from chainer import function_node
from chainer.utils import type_check


def argone(iterable):
    """Returns the positions of the elements equal to one.

    Args:
        iterable: Integers, e.g. a shape.

    Raises:
        ValueError: if an element is not an integer.
    """
    positions = []
    for i, n in enumerate(iterable):
        if not isinstance(n, int):
            raise ValueError('elements in iterable must be int')
        if n == 1:
            positions.append(i)
    return positions


class Squeeze(function_node.FunctionNode):

    """Removes axes of length one from an array."""

    def __init__(self, axis=None):
        if axis is None:
            self.axis = None
        elif isinstance(axis, int):
            self.axis = axis,
        elif isinstance(axis, tuple) and all(
                isinstance(a, int) for a in axis):
            self.axis = axis
        else:
            raise TypeError('axis must be None, int or tuple of ints')

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        if self.axis is not None:
            for a in self.axis:
                axis = type_check.make_variable(a, 'axis')
                type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.squeeze(x, self.axis),

    def backward(self, indexes, grad_outputs):
        return reshape.reshape(grad_outputs[0], self.inputs[0].shape),


def squeeze(x, axis=None):
    """Removes axes of length one from a variable.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        axis (None, int or tuple of int): The axes to remove; each must
            have length one, or :class:`ValueError` is raised. ``None``
            (default) removes all axes of length one.

    Returns:
        ~chainer.Variable: A view of ``x`` without those axes.

    .. admonition:: Example

        >>> x = np.zeros((1, 2, 1, 3))
        >>> F.squeeze(x).shape
        (2, 3)
        >>> F.squeeze(x, axis=(0, 2)).shape
        (2, 3)
        >>> F.squeeze(x, axis=-2).shape
        (1, 2, 3)

    """
    y, = Squeeze(axis).apply((x,))
    return y
