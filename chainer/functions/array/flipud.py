from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class FlipUD(function_node.FunctionNode):

    """Reverses the order of elements of an array along the first axis."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(a_type.dtype.kind == 'f', a_type.ndim >= 1)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.flipud(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return FlipUD().apply(grad_outputs)


def flipud(a):
    """Reverses the order of elements of a variable along the first axis.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): A float variable
            with at least one dimension.

    Returns:
        ~chainer.Variable: A view of ``a`` with its rows in reverse order.

    .. admonition:: Example

        >>> a = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.flipud(a).array
        array([[3., 4.],
               [1., 2.]], dtype=float32)

    """
    return FlipUD().apply((a,))[0]
