from chainer.functions.array import broadcast
from chainer.functions.array import reshape
from chainer.functions.math import _reduction
from chainer.functions.math import sum as sum_module
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class Mean(function_node.FunctionNode):

    """Unweighted mean along some axes."""

    def __init__(self, axis, keepdims):
        self.axis = _reduction.normalize_axis(axis)
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        _reduction.check_axis(x_type, self.axis)

    def forward(self, inputs):
        x, = inputs
        if self.axis is None:
            count = x.size
        else:
            count = 1
            for a in self.axis:
                count *= x.shape[a]
        # An empty reduction has no mean; fail as plain division does.
        self.multiplier = 1.0 / count
        return utils.force_array(
            x.mean(axis=self.axis, keepdims=self.keepdims)),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        in_shape = self.inputs[0].shape
        gy = gy * self.multiplier
        if not self.keepdims and self.axis is not None:
            gy = reshape.reshape(
                gy, _reduction.keepdims_shape(in_shape, self.axis))
        return broadcast.broadcast_to(gy, in_shape),


def _mean(x, axis, keepdims=False):
    y, = Mean(axis, keepdims).apply((x,))
    return y


def average(x, axis=None, weights=None, keepdims=False):
    """Weighted average of array elements over given axes.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): A float array of
            the elements to average.
        axis (None, int, or tuple of int): The axes to average over.
            ``None`` (default) averages all the elements. With ``weights``,
            only ``None``, an int or a tuple of one int are accepted.
        weights (None, :class:`~chainer.Variable` or :ref:`ndarray`): The
            weight of each element; ``None`` weighs all the elements
            equally. With ``axis=None`` it must have the shape of ``x`` (or
            one that broadcasts to it); with an int ``axis`` it must be a
            1-D array of length ``x.shape[axis]``.
        keepdims (bool): If ``True``, the averaged axes stay in the output
            as axes of length one.

    Returns:
        ~chainer.Variable: Output variable.

    .. admonition:: Example

        >>> x = np.array([[1., 2., 3.], [4., 5., 6.]], np.float32)
        >>> F.average(x).array
        array(3.5, dtype=float32)
        >>> w = np.array([1., 0., 1.], np.float32)
        >>> F.average(x, axis=1, weights=w).array
        array([2., 5.], dtype=float32)

    """
    if weights is None:
        return _mean(x, axis, keepdims)

    if axis is not None:
        axis = _reduction.normalize_axis(axis)
        if len(axis) > 1:
            raise ValueError(
                'tuple axis is not supported when weights is given')
        axis, = axis
        if axis < 0:
            axis += x.ndim
        # Lay the 1-D weights along ``axis``.
        w_shape = tuple(
            d if i == axis else 1 for i, d in enumerate(x.shape))
        x = x * broadcast.broadcast_to(
            reshape.reshape(weights, w_shape), x.shape)
    else:
        x = x * weights
    x_sum = sum_module.sum(x, axis=axis, keepdims=keepdims)
    divider = broadcast.broadcast_to(sum_module.sum(weights), x_sum.shape)
    return x_sum / divider


mean = average
