"""Element-wise error function."""

import math

from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import _scipy_special
from chainer.functions.math import exponential
from chainer import utils
from chainer.utils import type_check


_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)

_erf_cpu = None


class Erf(function_node.FunctionNode):

    """Element-wise error function; its derivative is
    ``2 / sqrt(pi) * exp(-x ** 2)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'erf'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        global _erf_cpu
        if _erf_cpu is None:
            _erf_cpu = _scipy_special.get_or_fallback('erf', math.erf)
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(_erf_cpu(x), x.dtype),

    def forward_gpu(self, inputs):
        self.retain_inputs((0,))
        return cuda.elementwise(
            'T x', 'T y', 'y = erf(x)', 'chainer_erf',
        )(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return _TWO_OVER_SQRT_PI * exponential.exp(-x * x) * grad_outputs[0],


def erf(x):
    """Element-wise error function,
    :math:`y_i = \\frac{2}{\\sqrt{\\pi}} \\int_0^{x_i} e^{-t^2} dt`.

    .. note::
       On the CPU it uses SciPy (:func:`scipy.special.erf`); without SciPy
       it works element by element in Python, slowly, and warns so.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Erf().apply((x,))[0]
