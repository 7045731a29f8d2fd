import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class Separate(function_node.FunctionNode):

    """Splits an array into its slices along an axis, removing the axis."""

    def __init__(self, axis):
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)

    def forward(self, inputs):
        x, = inputs
        axis = self.axis % x.ndim
        index = (slice(None),) * axis
        # The trailing Ellipsis makes a 0-dimensional slice a view, not a
        # scalar.
        ys = tuple([x[index + (i, Ellipsis)] for i in range(x.shape[axis])])
        if ys:
            self._shape = ys[0].shape
        return ys

    def backward(self, indexes, grad_outputs):
        dtype = self.inputs[0].dtype
        gys = list(grad_outputs)
        if any(gy is None for gy in gys):
            xp = backend.get_array_module(
                *[gy for gy in gys if gy is not None])
            zero = xp.zeros(self._shape, dtype)
            gys = [zero if gy is None else gy for gy in gys]
        return chainer.functions.stack(gys, self.axis),


def separate(x, axis=0):
    """Splits a variable into its slices along an axis.

    It is the inverse of :func:`~chainer.functions.stack`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The array cut
            into pieces.
        axis (int): The axis along which ``x`` is split; it does not
            appear in the outputs.

    Returns:
        tuple of ~chainer.Variable: The slices ``x[..., i, ...]`` (index
        ``i`` along ``axis``), as views of ``x``.

    .. admonition:: Example

        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> a, b = F.separate(x)
        >>> b.array
        array([3., 4., 5.], dtype=float32)
        >>> [y.shape for y in F.separate(x, axis=1)]
        [(2,), (2,), (2,)]

    """
    return Separate(axis).apply((x,))
