import chainer
from chainer import function_node
from chainer.utils import type_check


def _count_unknown_dims(shape):
    return len([dim for dim in shape if dim < 0])


class Reshape(function_node.FunctionNode):

    """Gives a view of the input with another shape."""

    def __init__(self, shape):
        self.shape = shape
        self._cnt = _count_unknown_dims(shape)
        assert self._cnt <= 1

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        if self._cnt == 0:
            type_check.expect(
                type_check.prod(x_type.shape) == type_check.prod(self.shape))
        else:
            known_size = 1
            for dim in self.shape:
                if dim > 0:
                    known_size *= dim
            size_var = type_check.make_variable(
                known_size, 'known_size(=%d)' % known_size)
            type_check.expect(
                type_check.prod(x_type.shape) % size_var == 0)

    def forward(self, inputs):
        return inputs[0].reshape(self.shape),

    def backward(self, indexes, grad_outputs):
        return reshape(grad_outputs[0], self.inputs[0].shape),


def reshape(x, shape):
    """Gives the input with another shape, sharing its memory.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        shape (tuple of int): The shape the result has. Its size must equal
            the size of ``x``; one dimension may be ``-1``, and is then
            inferred from the size and the other dimensions.

    Returns:
        ~chainer.Variable: A variable holding a reshaped view of ``x``. When
        ``x`` already has the shape, it is returned as a variable without a
        new node.

    .. admonition:: Example

        >>> x = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
        >>> F.reshape(x, (4, -1)).shape
        (4, 2)

    """
    if x.shape == shape:
        return chainer.as_variable(x)
    y, = Reshape(shape).apply((x,))
    return y
