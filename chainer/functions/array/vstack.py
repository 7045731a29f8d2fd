import numpy

from chainer import backend
from chainer.functions.array import _join
from chainer.functions.array import reshape
from chainer.functions.array import split_axis
from chainer import function_node
from chainer.utils import type_check


class Vstack(function_node.FunctionNode):

    """Joins arrays vertically (row-wise)."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        # Inputs with less than two dimensions become rows of equal length.
        axis = None if type_check.eval(in_types[0].ndim) <= 1 else 0
        _join.check_join_types(in_types, axis, name_inputs=True)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        return xp.vstack(xs),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        shapes = [x.shape for x in self.inputs]
        if len(shapes[0]) <= 1:
            # Each input became one row of the output.
            if len(shapes) == 1:
                return reshape.reshape(gy, shapes[0]),
            return tuple(reshape.reshape(g, shapes[0])
                         for g in split_axis.split_axis(gy, len(shapes), 0))
        if len(shapes) == 1:
            return gy,
        sections = numpy.cumsum([s[0] for s in shapes[:-1]])
        return split_axis.split_axis(gy, sections, 0)


def vstack(xs):
    """Joins variables vertically (row-wise).

    Like :func:`numpy.vstack`: inputs with less than two dimensions
    become rows of a two-dimensional output, the others are joined along
    the first axis.

    Args:
        xs (list of :class:`~chainer.Variable` or :ref:`ndarray`): The
            variables to join. They must have the same dtype and the same
            number of dimensions; inputs with less than two dimensions
            must have the same shape, the others the same shape except
            along the first axis.

    Returns:
        ~chainer.Variable: The joined variable.

    .. admonition:: Example

        >>> a = np.array([1, 2, 3])
        >>> b = np.array([4, 5, 6])
        >>> F.vstack((a, b)).array
        array([[1, 2, 3],
               [4, 5, 6]])
        >>> F.vstack((np.zeros((1, 3)), np.ones((2, 3)))).shape
        (3, 3)

    """
    return Vstack().apply(xs)[0]
