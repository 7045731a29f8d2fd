from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _as_tuple(axis):
    if isinstance(axis, int):
        return axis,
    return axis


class Moveaxis(function_node.FunctionNode):

    """Moves axes of an array to new positions."""

    def __init__(self, source, destination):
        self.source = _as_tuple(source)
        self.destination = _as_tuple(destination)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        for name in ('source', 'destination'):
            for a in getattr(self, name):
                axis = type_check.make_variable(a, name)
                type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.moveaxis(inputs[0], self.source, self.destination),

    def backward(self, indexes, grad_outputs):
        return Moveaxis(self.destination, self.source).apply(grad_outputs)


def moveaxis(x, source, destination):
    """Moves axes of a variable to new positions.

    The other axes keep their order.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Float input.
        source (int or tuple of int): The axes to move.
        destination (int or tuple of int): Their positions in the output,
            one for each axis in ``source``.

    Returns:
        ~chainer.Variable: A view of ``x`` with the axes moved.

    .. admonition:: Example

        >>> x = np.zeros((2, 3, 4, 5), np.float32)
        >>> F.moveaxis(x, 0, -1).shape
        (3, 4, 5, 2)
        >>> F.moveaxis(x, (0, 1), (-1, -2)).shape
        (4, 5, 3, 2)

    """
    return Moveaxis(source, destination).apply((x,))[0]
