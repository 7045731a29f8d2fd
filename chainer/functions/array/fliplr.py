from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class FlipLR(function_node.FunctionNode):

    """Reverses the order of elements of an array along the second axis."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(a_type.dtype.kind == 'f', a_type.ndim >= 2)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.fliplr(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return FlipLR().apply(grad_outputs)


def fliplr(a):
    """Reverses the order of elements of a variable along the second axis.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): A float variable
            with at least two dimensions.

    Returns:
        ~chainer.Variable: A view of ``a`` with its columns in reverse
        order.

    .. admonition:: Example

        >>> a = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.fliplr(a).array
        array([[2., 1.],
               [4., 3.]], dtype=float32)

    """
    return FlipLR().apply((a,))[0]
