from chainer import backend
from chainer.functions.array import reshape
from chainer import function_node
from chainer.utils import type_check


def _check_axis_arg(axis):
    if axis is not None and not isinstance(axis, int):
        raise TypeError('axis must be int or None')


def _cumulative(scan, xp, x, axis, reverse):
    """Runs the cumulative ``scan`` (``xp.cumsum`` or ``xp.cumprod``) of the
    array ``x`` along ``axis`` (over the flattened array if ``None``), from
    the end of the axis if ``reverse``."""
    if axis is None:
        x = x.ravel()
        axis = 0
    if reverse:
        return xp.flip(scan(xp.flip(x, axis), axis=axis), axis)
    return scan(x, axis=axis)


class Cumsum(function_node.FunctionNode):

    """Cumulative sum of array elements along an axis.

    With ``reverse=True`` the sums run from the end of the axis to its
    start; the gradient of one direction is the sum in the other.
    """

    def __init__(self, axis=None, reverse=False):
        _check_axis_arg(axis)
        self.axis = axis
        self.reverse = reverse

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.axis is not None:
            if self.axis >= 0:
                type_check.expect(self.axis < x_type.ndim)
            else:
                type_check.expect(-self.axis - 1 < x_type.ndim)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return _cumulative(xp.cumsum, xp, x, self.axis, self.reverse),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        axis = 0 if self.axis is None else self.axis
        gx, = Cumsum(axis, not self.reverse).apply((gy,))
        return reshape.reshape(gx, self.inputs[0].shape),


def cumsum(x, axis=None):
    """Cumulative sum of array elements along an axis.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): A float array.
        axis (int or None): The axis to sum along. ``None`` (default) sums
            the flattened array.

    Returns:
        ~chainer.Variable: Output variable; 1-D when ``axis`` is ``None``.

    .. admonition:: Example

        >>> x = np.array([[1., 2., 3.], [4., 5., 6.]], np.float32)
        >>> F.cumsum(x, axis=1).array
        array([[ 1.,  3.,  6.],
               [ 4.,  9., 15.]], dtype=float32)
        >>> F.cumsum(x).array
        array([ 1.,  3.,  6., 10., 15., 21.], dtype=float32)

    """
    y, = Cumsum(axis).apply((x,))
    return y
