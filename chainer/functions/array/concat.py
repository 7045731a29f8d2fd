import numpy

import chainer
from chainer import backend
from chainer.functions.array import _join
from chainer import function_node
from chainer.utils import type_check


class Concat(function_node.FunctionNode):

    """Joins arrays along an existing axis."""

    def __init__(self, axis=1):
        if not isinstance(axis, int):
            raise TypeError('axis must be int')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        x0 = in_types[0]
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(-x0.ndim <= axis, axis < x0.ndim)
        _join.check_join_types(
            in_types, self.axis % type_check.eval(x0.ndim))

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        return xp.concatenate(xs, self.axis),

    def backward(self, indexes, grad_outputs):
        if len(self.inputs) == 1:
            return grad_outputs
        axis = self.axis
        sections = numpy.cumsum([x.shape[axis] for x in self.inputs[:-1]])
        return chainer.functions.split_axis(
            grad_outputs[0], sections, axis)


def concat(xs, axis=1):
    """Joins variables along an existing axis.

    Args:
        xs (list or tuple of :class:`~chainer.Variable` or :ref:`ndarray`):
            The variables to join. They must have the same dtype and the
            same shape except along ``axis``.
        axis (int): The axis along which they are joined.

    Returns:
        ~chainer.Variable: The joined variable.

    .. admonition:: Example

        >>> a = np.zeros((2, 3), np.float32)
        >>> b = np.ones((2, 1), np.float32)
        >>> F.concat((a, b), axis=1).shape
        (2, 4)
        >>> F.concat((a, a), axis=0).shape
        (4, 3)

    """
    y, = Concat(axis).apply(xs)
    return y
