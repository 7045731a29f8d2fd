from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class SquaredError(function_node.FunctionNode):

    """Element-wise squared error, ``(x0 - x1) ** 2``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x0', 'x1'))
        x0_type, x1_type = in_types
        type_check.expect(
            x0_type.dtype.kind == 'f',
            x0_type.dtype == x1_type.dtype,
            x0_type.shape == x1_type.shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        diff = utils.force_array(x0 - x1)
        diff *= diff
        return diff,

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        gx = (gy * 2) * (x0 - x1)
        return tuple([gx if i == 0 else -gx for i in indexes])


def squared_error(x0, x1):
    """Element-wise squared error.

    Computes :math:`(x_0 - x_1)^2` element by element; the error is not
    scaled by :math:`1/2`. :func:`squared_difference` is the same function
    with other argument names; both exist for backward compatibility.

    Args:
        x0 (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable,
            of a float dtype.
        x1 (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable,
            of the same shape and dtype as ``x0``.

    Returns:
        ~chainer.Variable: The squared differences, of the shape of the
        inputs.

    .. seealso:: :func:`~chainer.functions.squared_difference`

    .. admonition:: Example

        >>> x0 = np.arange(4).astype(np.float32)
        >>> x1 = np.array([3., 2., 1., 0.], np.float32)
        >>> F.squared_error(x0, x1).array
        array([9., 1., 1., 9.], dtype=float32)

    """
    return SquaredError().apply((x0, x1))[0]


def squared_difference(x1, x2):
    """Element-wise squared difference, :math:`(x_1 - x_2)^2`.

    The same function as :func:`~chainer.functions.squared_error`, with the
    arguments named ``x1`` and ``x2``.

    Args:
        x1 (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable,
            of a float dtype.
        x2 (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable,
            of the same shape and dtype as ``x1``.

    Returns:
        ~chainer.Variable: The squared differences.

    .. seealso:: :func:`~chainer.functions.squared_error`

    """
    return squared_error(x1, x2)
