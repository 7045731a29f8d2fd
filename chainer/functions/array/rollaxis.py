from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class Rollaxis(function_node.FunctionNode):

    """Moves an axis of an array to a given position."""

    def __init__(self, axis, start):
        if not isinstance(axis, int):
            raise TypeError('axis must be int')
        if not isinstance(start, int):
            raise TypeError('start must be int')
        self.axis = axis
        self.start = start

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        start = type_check.make_variable(self.start, 'start')
        type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)
        type_check.expect(-x_type.ndim <= start, start <= x_type.ndim)

    def forward(self, inputs):
        x, = inputs
        self._in_ndim = x.ndim
        xp = backend.get_array_module(x)
        return xp.rollaxis(x, self.axis, self.start),

    def backward(self, indexes, grad_outputs):
        # The axis now sits at ``start`` (one less when it came from
        # before ``start``); rolling it back to where it was undoes the
        # forward.
        ndim = self._in_ndim
        axis = self.axis % ndim
        start = self.start + ndim if self.start < 0 else self.start
        if axis < start:
            return Rollaxis(start - 1, axis).apply(grad_outputs)
        return Rollaxis(start, axis + 1).apply(grad_outputs)


def rollaxis(x, axis, start=0):
    """Moves an axis of a variable to a given position.

    Like :func:`numpy.rollaxis`, the axis is moved to just before the axis
    found at position ``start``; the other axes keep their order.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        axis (int): The axis to move.
        start (int): The position before which it is put.

    Returns:
        ~chainer.Variable: A view of ``x`` with the axis moved.

    .. admonition:: Example

        >>> x = np.zeros((2, 3, 4, 5), np.float32)
        >>> F.rollaxis(x, 3, 1).shape
        (2, 5, 3, 4)
        >>> F.rollaxis(x, 0, 3).shape
        (3, 4, 2, 5)

    """
    return Rollaxis(axis, start).apply((x,))[0]
