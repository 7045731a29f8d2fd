"""Element-wise inverse of the error function."""

import importlib.util
import math

from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import _scipy_special
from chainer.functions.math import exponential
from chainer import utils
from chainer.utils import type_check


# The factor of the derivative, sqrt(pi) / 2, under Chainer's name.
BACKWORDC = math.sqrt(math.pi) / 2

# Whether SciPy, which computes the function on the CPU, is installed; it
# is imported on the first computation, not with Chainer.
available_cpu = importlib.util.find_spec('scipy') is not None


class ErfInv(function_node.FunctionNode):

    """Element-wise inverse error function; its derivative is
    ``sqrt(pi) / 2 * exp(y ** 2)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'erfinv'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        special = _scipy_special.get('erfinv')
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(special.erfinv(x), x.dtype),

    def forward_gpu(self, inputs):
        self.retain_outputs((0,))
        return cuda.elementwise(
            'T x', 'T y', 'y = erfinv(x)', 'chainer_erfinv',
        )(inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return BACKWORDC * exponential.exp(y * y) * grad_outputs[0],


def erfinv(x):
    """Element-wise inverse of the error function,
    :math:`y_i = \\mathrm{erf}^{-1}(x_i)`.

    .. note::
       On the CPU it needs SciPy (:func:`scipy.special.erfinv`); without it
       the forward computation raises :class:`ImportError`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype, in :math:`[-1, 1]`.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return ErfInv().apply((x,))[0]
