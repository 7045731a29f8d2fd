import numpy

from chainer import function_node
from chainer.functions.loss import squared_error
from chainer import utils


class MeanSquaredError(function_node.FunctionNode):

    """Mean squared error (Euclidean loss) of two arrays."""

    # The inputs of the element-wise error, whose mean it takes.
    check_type_forward = squared_error.SquaredError.check_type_forward

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        dtype = x0.dtype
        diff = utils.force_array(x0 - x1).ravel()
        if dtype == numpy.float16:
            # Half precision has no fast dot and overflows early.
            diff = diff.astype(numpy.float32)
        total = diff.dot(diff)
        return utils.force_array(total / total.dtype.type(diff.size), dtype),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        gx = (x0 - x1) * (gy * (2. / x0.size))
        return tuple([gx if i == 0 else -gx for i in indexes])


def mean_squared_error(x0, x1):
    """Mean squared error.

    Computes the mean, over all elements, of :math:`(x_0 - x_1)^2`. The
    error is not scaled by :math:`1/2`.

    Args:
        x0 (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable,
            of a float dtype.
        x1 (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable,
            of the same shape and dtype as ``x0``.

    Returns:
        ~chainer.Variable: A scalar variable holding the mean squared
        error, of the dtype of the inputs.

    .. admonition:: Example

        >>> x0 = np.array([1., 2., 3., 4.], np.float32)
        >>> x1 = np.zeros(4, np.float32)
        >>> F.mean_squared_error(x0, x1).array
        array(7.5, dtype=float32)

    """
    return MeanSquaredError().apply((x0, x1))[0]
