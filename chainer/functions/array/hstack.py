import numpy

from chainer import backend
from chainer.functions.array import _join
from chainer.functions.array import reshape
from chainer.functions.array import split_axis
from chainer import function_node
from chainer.utils import type_check


class Hstack(function_node.FunctionNode):

    """Joins arrays horizontally (column-wise)."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        # One-dimensional inputs are joined along their only axis.
        ndim = type_check.eval(in_types[0].ndim)
        axis = None if ndim == 0 else 0 if ndim == 1 else 1
        _join.check_join_types(in_types, axis, name_inputs=True)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        return xp.hstack(xs),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        shapes = [x.shape for x in self.inputs]
        ndim = len(shapes[0])
        if ndim == 0:
            if len(shapes) == 1:
                return reshape.reshape(gy, ()),
            return tuple(reshape.reshape(g, ())
                         for g in split_axis.split_axis(gy, len(shapes), 0))
        if len(shapes) == 1:
            return gy,
        axis = 0 if ndim == 1 else 1
        sections = numpy.cumsum([s[axis] for s in shapes[:-1]])
        return split_axis.split_axis(gy, sections, axis)


def hstack(xs):
    """Joins variables horizontally (column-wise).

    Like :func:`numpy.hstack`: one-dimensional (and zero-dimensional)
    inputs are joined along the first axis, the others along the second.

    Args:
        xs (list of :class:`~chainer.Variable` or :ref:`ndarray`): The
            variables to join. They must have the same dtype, the same
            number of dimensions and, when they have more than one
            dimension, the same shape except along the second axis.

    Returns:
        ~chainer.Variable: The joined variable.

    .. admonition:: Example

        >>> a = np.array([1, 2])
        >>> b = np.array([3, 4, 5])
        >>> F.hstack((a, b)).array
        array([1, 2, 3, 4, 5])
        >>> F.hstack((np.zeros((2, 1)), np.ones((2, 3)))).shape
        (2, 4)

    """
    y, = Hstack().apply(xs)
    return y
