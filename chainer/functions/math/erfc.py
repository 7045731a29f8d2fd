"""Element-wise complementary error function."""

import math

from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import _scipy_special
from chainer.functions.math import exponential
from chainer import utils
from chainer.utils import type_check


_MINUS_TWO_OVER_SQRT_PI = -2.0 / math.sqrt(math.pi)

_erfc_cpu = None


class Erfc(function_node.FunctionNode):

    """Element-wise complementary error function, ``1 - erf(x)``; its
    derivative is ``-2 / sqrt(pi) * exp(-x ** 2)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'erfc'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        global _erfc_cpu
        if _erfc_cpu is None:
            _erfc_cpu = _scipy_special.get_or_fallback('erfc', math.erfc)
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(_erfc_cpu(x), x.dtype),

    def forward_gpu(self, inputs):
        self.retain_inputs((0,))
        return cuda.elementwise(
            'T x', 'T y', 'y = erfc(x)', 'chainer_erfc',
        )(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return (_MINUS_TWO_OVER_SQRT_PI * exponential.exp(-x * x) *
                grad_outputs[0]),


def erfc(x):
    """Element-wise complementary error function,
    :math:`y_i = 1 - \\mathrm{erf}(x_i)`, accurate where :math:`y_i` is
    small.

    .. note::
       On the CPU it uses SciPy (:func:`scipy.special.erfc`); without
       SciPy it works element by element in Python, slowly, and warns so.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Erfc().apply((x,))[0]
