"""Element-wise hyperbolic sine and cosine."""

from chainer import backend
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class Cosh(function_node.FunctionNode):

    """Element-wise hyperbolic cosine; its derivative is ``sinh(x)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'cosh'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.cosh(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return sinh(x) * grad_outputs[0],


def cosh(x):
    """Element-wise hyperbolic cosine, :math:`y_i = \\cosh x_i`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Cosh().apply((x,))[0]


class Sinh(function_node.FunctionNode):

    """Element-wise hyperbolic sine; its derivative is ``cosh(x)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'sinh'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.sinh(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return cosh(x) * grad_outputs[0],


def sinh(x):
    """Element-wise hyperbolic sine, :math:`y_i = \\sinh x_i`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Sinh().apply((x,))[0]
