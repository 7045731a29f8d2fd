from chainer import backend
from chainer import function_node
from chainer.functions.array import split_axis
from chainer.utils import type_check


class CReLU(function_node.FunctionNode):

    """Concatenated rectified linear unit: ``(max(0, x), max(0, -x))``."""

    def __init__(self, axis=1):
        if not isinstance(axis, int):
            raise TypeError('axis must be an integer value')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim > self.axis,
            x_type.ndim >= -self.axis,
        )

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        shape = list(x.shape)
        shape[self.axis] *= 2
        y = xp.empty(shape, x.dtype)
        positive, negative = xp.split(y, 2, axis=self.axis)
        xp.maximum(x, 0, out=positive)
        xp.negative(x, out=negative)
        xp.maximum(negative, 0, out=negative)
        return y,

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        g_positive, g_negative = split_axis.split_axis(
            grad_outputs[0], 2, self.axis)
        return g_positive * (x > 0) - g_negative * (x < 0),


def crelu(x, axis=1):
    """Concatenated rectified linear unit.

    It computes :math:`(\\max(0, x), \\max(0, -x))` and concatenates the two
    halves along ``axis``, so that the output is twice as long as ``x``
    there. See `Shang et al. <https://arxiv.org/abs/1603.05201>`_.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.
        axis (int): The axis along which the halves are concatenated.

    Returns:
        ~chainer.Variable: Output variable. For ``axis=1`` and an input of
        shape :math:`(s_1, s_2, ..., s_N)`, its shape is
        :math:`(s_1, 2 s_2, ..., s_N)`.

    .. admonition:: Example

        >>> x = np.array([[-1., 0.], [2., -3.]], np.float32)
        >>> F.crelu(x).array
        array([[0., 0., 1., 0.],
               [2., 0., 0., 3.]], dtype=float32)

    """
    y, = CReLU(axis).apply((x,))
    return y
