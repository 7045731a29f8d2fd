from chainer import backend
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class AbsoluteError(function_node.FunctionNode):

    """Element-wise absolute error, ``|x0 - x1|``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x0', 'x1'))
        x0_type, x1_type = in_types
        type_check.expect(
            x0_type.dtype.kind == 'f',
            x0_type.dtype == x1_type.dtype,
            x0_type.shape == x1_type.shape,
        )

    def forward(self, inputs):
        x0, x1 = inputs
        # The sign of the difference is all backward needs.
        self.diff = utils.force_array(x0 - x1)
        return utils.force_array(abs(self.diff), x0.dtype),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        xp = backend.get_array_module(self.diff)
        gx = gy * xp.sign(self.diff)
        return tuple([gx if i == 0 else -gx for i in indexes])


def absolute_error(x0, x1):
    """Element-wise absolute error.

    Computes :math:`L = |x_0 - x_1|` element by element.

    Args:
        x0 (:class:`~chainer.Variable` or :ref:`ndarray`): First input
            variable, of a float dtype.
        x1 (:class:`~chainer.Variable` or :ref:`ndarray`): Second input
            variable, of the same shape and dtype as ``x0``.

    Returns:
        ~chainer.Variable: The absolute differences, of the shape of the
        inputs.

    .. admonition:: Example

        >>> x0 = np.array([1., -2., 3.], np.float32)
        >>> x1 = np.array([0.5, 1., 3.], np.float32)
        >>> F.absolute_error(x0, x1).array
        array([0.5, 3. , 0. ], dtype=float32)

    """
    return AbsoluteError().apply((x0, x1))[0]
