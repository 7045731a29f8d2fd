"""Element-wise ``log(1 + x)``, accurate for small ``x``."""

from chainer import backend
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class Log1p(function_node.FunctionNode):

    """Element-wise ``log(1 + x)``; its derivative is ``1 / (1 + x)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'log1p'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.log1p(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (x + 1.0),


def log1p(x):
    """Element-wise natural logarithm of one plus the input,
    :math:`y_i = \\ln(1 + x_i)`.

    It keeps full precision where :math:`x_i` is close to zero, where
    ``log(1 + x)`` would lose it.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Log1p().apply((x,))[0]
