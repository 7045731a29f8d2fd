import chainer
from chainer import backend
from chainer.functions.array import _join
from chainer import function_node
from chainer.utils import type_check


class Stack(function_node.FunctionNode):

    """Joins arrays of the same shape along a new axis."""

    def __init__(self, axis):
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        x0 = in_types[0]
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(-x0.ndim - 1 <= axis, axis <= x0.ndim)
        _join.check_join_types(in_types, None)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.stack(inputs, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        return chainer.functions.separate(grad_outputs[0], self.axis)


def stack(xs, axis=0):
    """Joins variables of the same shape along a new axis.

    Args:
        xs (list of :class:`~chainer.Variable` or :ref:`ndarray`): The
            variables to join. They must have the same shape and dtype.
        axis (int): The position of the new axis in the output, from
            ``-ndim - 1`` to ``ndim`` where ``ndim`` is the number of
            dimensions of the inputs. A negative value counts from the end
            of the output's axes.

    Returns:
        ~chainer.Variable: The joined variable ``y``, whose slice at index
        ``i`` along ``axis`` is ``xs[i]``.

    .. admonition:: Example

        >>> a = np.zeros((2, 3), np.float32)
        >>> b = np.ones((2, 3), np.float32)
        >>> F.stack((a, b)).shape
        (2, 2, 3)
        >>> F.stack((a, b), axis=-1).shape
        (2, 3, 2)

    """
    return Stack(axis).apply(xs)[0]
