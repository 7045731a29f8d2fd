"""Element-wise inverse hyperbolic tangent."""

from chainer import backend
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class Arctanh(function_node.FunctionNode):

    """Element-wise inverse hyperbolic tangent; its derivative is
    ``1 / (1 - x ** 2)``."""

    is_elementwise = True

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.arctanh(x), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (1 - x * x),


def arctanh(x):
    """Element-wise inverse hyperbolic tangent,
    :math:`y_i = \\tanh^{-1} x_i`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype, in :math:`(-1, 1)` (infinite at the ends,
            ``nan`` outside).

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Arctanh().apply((x,))[0]
