import numpy

import chainer
from chainer import _kernels
from chainer.functions.array import reshape
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


def _over_all_but_channels(axis, ndim):
    # Whether `axis` is every axis of an (N, C, spatial...) array but C
    # (a bias gradient), which the kernels sum in one pass in any layout.
    return (len(axis) == ndim - 1
            and sorted(a % ndim for a in axis) == [0] + list(range(2, ndim)))


class Sum(function_node.FunctionNode):

    """Adds the elements up along some axes."""

    keepdims = False

    def __init__(self, axis=None, keepdims=False):
        if axis is None:
            self.axis = None
        elif isinstance(axis, int):
            self.axis = (axis,)
        elif isinstance(axis, tuple) and all(
                isinstance(a, int) for a in axis):
            if len(set(axis)) != len(axis):
                raise ValueError('duplicate value in axis: ({})'.format(
                    ', '.join(map(str, axis))))
            self.axis = axis
        else:
            raise TypeError('None, int or tuple of int are required')
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.axis is not None:
            for axis in self.axis:
                if axis >= 0:
                    type_check.expect(axis < x_type.ndim)
                else:
                    type_check.expect(-axis - 1 < x_type.ndim)

    def forward(self, inputs):
        x, = inputs
        if (self.axis is not None and x.ndim >= 3 and not self.keepdims
                and _over_all_but_channels(self.axis, x.ndim)):
            y = _kernels.call((x,), _kernels.FLOATS,
                              lambda k: k.channel_sum(_kernels.plain(x)))
            if y is not None:
                return y,
        y = x.sum(axis=self.axis, keepdims=self.keepdims)
        if isinstance(y, numpy.generic):
            y = numpy.asarray(y)
        return y,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        in_shape = self.inputs[0].shape
        ndim = len(in_shape)
        if ndim and self.axis is not None and not self.keepdims:
            shape = list(gy.shape)
            for axis in sorted(a % ndim for a in self.axis):
                shape.insert(axis, 1)
            gy = reshape.reshape(gy, tuple(shape))
        return chainer.functions.broadcast_to(gy, in_shape),


def sum(x, axis=None, keepdims=False):
    """Adds the elements up along some axes.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): A float array
            whose elements are summed.
        axis (None, int, or tuple of int): The axes to sum over. ``None``
            (default) sums all the elements.
        keepdims (bool): If ``True``, the summed axes stay in the output as
            axes of length one.

    Returns:
        ~chainer.Variable: Output variable.

    .. admonition:: Example

        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> F.sum(x, axis=1).array
        array([ 3., 12.], dtype=float32)
        >>> F.sum(x, keepdims=True).shape
        (1, 1)

    """
    y, = Sum(axis, keepdims).apply((x,))
    return y


class SumTo(function_node.FunctionNode):

    """Sum of array elements along broadcast axes, down to a given shape."""

    def __init__(self, shape):
        self._shape = shape

    def forward(self, inputs):
        x, = inputs
        return utils.sum_to(x, self._shape),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return chainer.functions.broadcast_to(gy, self.inputs[0].shape),


def sum_to(x, shape):
    """Adds up elements so that the result has the shape asked for.

    It is the reverse of :func:`~chainer.functions.broadcast_to`: leading
    axes are summed away, and the axes where ``shape`` has length one are
    summed with the length kept.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        shape (tuple of int): The shape to reach.

    Returns:
        ~chainer.Variable: The result, shaped ``shape``. When ``x``
        already has that shape, it is returned as a variable without a new
        node.

    .. admonition:: Example

        >>> x = np.array([[1., 2., 3.], [4., 5., 6.]])
        >>> F.sum_to(x, (1, 3)).array
        array([[5., 7., 9.]])
        >>> F.sum_to(x, (2, 1)).array
        array([[ 6.],
               [15.]])

    """
    if x.shape == shape:
        return chainer.as_variable(x)
    y, = SumTo(shape).apply((x,))
    return y

