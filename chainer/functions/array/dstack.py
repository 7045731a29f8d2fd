import numpy

from chainer import backend
from chainer.functions.array import _join
from chainer.functions.array import reshape
from chainer.functions.array import split_axis
from chainer import function_node
from chainer.utils import type_check


class Dstack(function_node.FunctionNode):

    """Joins arrays depth-wise (along the third axis)."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        # Inputs with less than three dimensions become slices of equal
        # shape.
        axis = None if type_check.eval(in_types[0].ndim) <= 2 else 2
        _join.check_join_types(in_types, axis, name_inputs=True)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        return xp.dstack(xs),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        shapes = [x.shape for x in self.inputs]
        if len(shapes[0]) <= 2:
            # Each input became one slice of the output along the third
            # axis.
            if len(shapes) == 1:
                return reshape.reshape(gy, shapes[0]),
            return tuple(reshape.reshape(g, shapes[0])
                         for g in split_axis.split_axis(gy, len(shapes), 2))
        if len(shapes) == 1:
            return gy,
        sections = numpy.cumsum([s[2] for s in shapes[:-1]])
        return split_axis.split_axis(gy, sections, 2)


def dstack(xs):
    """Joins variables depth-wise (along the third axis).

    Like :func:`numpy.dstack`: inputs with less than three dimensions are
    first viewed as ``(1, N, 1)`` (one-dimensional) or ``(M, N, 1)``
    (two-dimensional) arrays; all are then joined along the third axis.

    Args:
        xs (list of :class:`~chainer.Variable` or :ref:`ndarray`): The
            variables to join. They must have the same dtype and the same
            number of dimensions; inputs with less than three dimensions
            must have the same shape, the others the same shape except
            along the third axis.

    Returns:
        ~chainer.Variable: The joined variable.

    .. admonition:: Example

        >>> a = np.array([1, 2, 3])
        >>> b = np.array([4, 5, 6])
        >>> F.dstack((a, b)).array
        array([[[1, 4],
                [2, 5],
                [3, 6]]])
        >>> F.dstack((np.zeros((2, 3, 1)), np.ones((2, 3, 2)))).shape
        (2, 3, 3)

    """
    return Dstack().apply(xs)[0]
