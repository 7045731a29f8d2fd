from chainer.functions import _numerics
from chainer.functions.array import reshape
from chainer.functions.math import _reduction
from chainer.functions.math import exponential
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class LogSumExp(function_node.FunctionNode):

    """Logarithm of the sum of exponentials over given axes."""

    def __init__(self, axis=None):
        self.axis = _reduction.normalize_axis(axis)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        _reduction.check_axis(x_type, self.axis)

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        y = _numerics.logsumexp(x, self.axis)
        return utils.force_array(y.squeeze(axis=self.axis)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        if self.axis is not None:
            shape = _reduction.keepdims_shape(x.shape, self.axis)
            y = reshape.reshape(y, shape)
            gy = reshape.reshape(gy, shape)
        # The gradient is the softmax over the reduced axes.
        return gy * exponential.exp(x - y),


def logsumexp(x, axis=None):
    """Logarithm of the sum of exponentials of array elements.

    .. math::

       y_i = \\log\\left(\\sum_j \\exp(x_{ij})\\right)

    It is computed stably: the elements are shifted by their maximum
    before the exponential. As in Chainer 7.8, a reduction whose maximum
    is infinite (or NaN) gives NaN.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): A float array.
        axis (None, int, or tuple of int): The axes to sum over. ``None``
            (default) sums all the elements.

    Returns:
        ~chainer.Variable: Output variable.

    .. admonition:: Example

        >>> x = np.array([[0., 0.], [1., 1.]], np.float32)
        >>> F.logsumexp(x, axis=1).array
        array([0.6931472, 1.6931472], dtype=float32)
        >>> F.logsumexp(x + 1000, axis=1).array  # no overflow
        array([1000.6932, 1001.6932], dtype=float32)

    """
    y, = LogSumExp(axis).apply((x,))
    return y
