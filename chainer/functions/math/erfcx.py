"""Element-wise scaled complementary error function."""

import importlib.util
import math

from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import _scipy_special
from chainer import utils
from chainer.utils import type_check


# Whether SciPy, which computes the function on the CPU, is installed; it
# is imported on the first computation, not with Chainer.
available_cpu = importlib.util.find_spec('scipy') is not None


_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Erfcx(function_node.FunctionNode):

    """Element-wise ``exp(x ** 2) * erfc(x)``; its derivative is
    ``2 x y - 2 / sqrt(pi)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'erfcx'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        special = _scipy_special.get('erfcx')
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(special.erfcx(x), x.dtype),

    def forward_gpu(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return cuda.elementwise(
            'T x', 'T y', 'y = erfcx(x)', 'chainer_erfcx',
        )(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        return (2 * x * y - _TWO_OVER_SQRT_PI) * grad_outputs[0],


def erfcx(x):
    """Element-wise scaled complementary error function,
    :math:`y_i = e^{x_i^2} \\mathrm{erfc}(x_i)`.

    It stays finite where ``erfc`` underflows, for large :math:`x_i`.

    .. note::
       On the CPU it needs SciPy (:func:`scipy.special.erfcx`); without it
       the forward computation raises :class:`ImportError`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Erfcx().apply((x,))[0]
