import numpy

from chainer import backend
from chainer import function_node
from chainer.functions.loss import absolute_error
from chainer import utils


def _accumulation_dtype(dtype):
    # Half precision sums lose too much: they are accumulated in float32.
    if dtype == numpy.float16:
        return numpy.dtype(numpy.float32)
    return dtype


class MeanAbsoluteError(function_node.FunctionNode):

    """Mean of the absolute differences of two arrays."""

    # The inputs of the element-wise error, whose mean it takes.
    check_type_forward = absolute_error.AbsoluteError.check_type_forward

    def forward(self, inputs):
        x0, x1 = inputs
        self.diff = utils.force_array(x0 - x1)
        dtype = x0.dtype
        total = abs(self.diff).sum(dtype=_accumulation_dtype(dtype))
        return utils.force_array(total / total.dtype.type(x0.size), dtype),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        xp = backend.get_array_module(self.diff)
        sign = xp.sign(self.diff)
        gx = (gy * (1. / self.diff.size)) * sign
        return tuple([gx if i == 0 else -gx for i in indexes])


def mean_absolute_error(x0, x1):
    """Mean absolute error.

    Computes the mean, over all elements, of :math:`|x_0 - x_1|`.

    Args:
        x0 (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable,
            of a float dtype.
        x1 (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable,
            of the same shape and dtype as ``x0``.

    Returns:
        ~chainer.Variable: A scalar variable holding the mean absolute
        error, of the dtype of the inputs.

    .. admonition:: Example

        >>> x0 = np.array([[1., 2.], [3., 4.]], np.float32)
        >>> x1 = np.full((2, 2), 8., np.float32)
        >>> F.mean_absolute_error(x0, x1).array
        array(5.5, dtype=float32)

    """
    return MeanAbsoluteError().apply((x0, x1))[0]
