from chainer import function_node
from chainer.utils import type_check


class Transpose(function_node.FunctionNode):

    """Reorders the axes of an array."""

    def __init__(self, axes=None):
        self.axes = axes

    @property
    def label(self):
        return 'Transpose'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    def forward(self, inputs):
        return inputs[0].transpose(self.axes),

    def backward(self, indexes, grad_outputs):
        axes = self.axes
        if axes is not None:
            ndim = len(axes)
            inverse = [0] * ndim
            for i, axis in enumerate(axes):
                inverse[axis % ndim] = i
            axes = tuple(inverse)
        return Transpose(axes).apply(grad_outputs)


def transpose(x, axes=None):
    """Reorders the axes of the input, sharing its memory.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        axes (tuple of ints): The permutation of the axes. By default, the
            axes are reversed.

    Returns:
        ~chainer.Variable: The input with its axes reordered.

    .. admonition:: Example

        >>> x = np.zeros((1, 2, 3), np.float32)
        >>> F.transpose(x).shape
        (3, 2, 1)
        >>> F.transpose(x, axes=(1, 0, 2)).shape
        (2, 1, 3)

    """
    return Transpose(axes).apply((x,))[0]
