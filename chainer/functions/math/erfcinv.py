"""Element-wise inverse of the complementary error function."""

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


class ErfcInv(function_node.FunctionNode):

    """Element-wise inverse complementary error function; its derivative
    is ``-sqrt(pi) / 2 * exp(y ** 2)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'erfcinv'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        special = _scipy_special.get('erfcinv')
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(special.erfcinv(x), x.dtype),

    def forward_gpu(self, inputs):
        self.retain_outputs((0,))
        return cuda.elementwise(
            'T x', 'T y', 'y = erfcinv(x)', 'chainer_erfcinv',
        )(inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return (-BACKWORDC * exponential.exp(y * y) *
                grad_outputs[0]),


def erfcinv(x):
    """Element-wise inverse of the complementary error function,
    :math:`y_i = \\mathrm{erfc}^{-1}(x_i)`.

    .. note::
       On the CPU it needs SciPy (:func:`scipy.special.erfcinv`); without
       it the forward computation raises :class:`ImportError`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype, in :math:`[0, 2]`.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return ErfcInv().apply((x,))[0]
