from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class Diagonal(function_node.FunctionNode):

    """Takes a diagonal of an array."""

    def __init__(self, offset, axis1, axis2):
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        for name in ('axis1', 'axis2'):
            axis = type_check.make_variable(getattr(self, name), name)
            type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)

    def forward(self, inputs):
        x, = inputs
        return x.diagonal(self.offset, self.axis1, self.axis2),

    def backward(self, indexes, grad_outputs):
        return DiagonalGrad(
            self.inputs[0].shape, self.offset, self.axis1, self.axis2,
        ).apply(grad_outputs)


class DiagonalGrad(function_node.FunctionNode):

    """Gradient of :class:`Diagonal`: writes a diagonal into zeros."""

    def __init__(self, out_shape, offset, axis1, axis2):
        self.out_shape = out_shape
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self.out_shape, gy.dtype)
        # The two axes moved last, the diagonal is indexed by two ranges.
        planes = xp.moveaxis(gx, (self.axis1, self.axis2), (-2, -1))
        n = gy.shape[-1]
        rows = xp.arange(n) + max(-self.offset, 0)
        cols = xp.arange(n) + max(self.offset, 0)
        planes[..., rows, cols] = gy
        return gx,

    def backward(self, indexes, grad_outputs):
        return Diagonal(self.offset, self.axis1, self.axis2).apply(
            grad_outputs)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """Takes a diagonal of a variable.

    Like :func:`numpy.diagonal`, the axes ``axis1`` and ``axis2`` are
    removed and the diagonal becomes the last axis of the output.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): A variable with
            at least two dimensions.
        offset (int): The offset of the diagonal from the main one;
            positive for diagonals above it, negative for those below.
        axis1 (int): The first axis of the planes whose diagonals are
            taken.
        axis2 (int): The second axis of those planes.

    Returns:
        ~chainer.Variable: A read-only view of the diagonal.

    .. admonition:: Example

        >>> x = np.arange(9, dtype=np.float32).reshape(3, 3)
        >>> F.diagonal(x).array
        array([0., 4., 8.], dtype=float32)
        >>> F.diagonal(x, offset=1).array
        array([1., 5.], dtype=float32)

    """
    return Diagonal(offset, axis1, axis2).apply((x,))[0]
