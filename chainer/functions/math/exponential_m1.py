"""Element-wise ``exp(x) - 1``, accurate for small ``x``."""

from chainer import backend
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class Expm1(function_node.FunctionNode):

    """Element-wise ``exp(x) - 1``; its derivative is ``y + 1``."""

    is_elementwise = True

    @property
    def label(self):
        return 'expm1'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.expm1(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return (y + 1.0) * grad_outputs[0],


def expm1(x):
    """Element-wise exponential minus one, :math:`y_i = e^{x_i} - 1`.

    It keeps full precision where :math:`x_i` is close to zero, where
    ``exp(x) - 1`` would lose it.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Expm1().apply((x,))[0]
