"""The standard normal CDF, elementwise."""

import math

from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import _scipy_special
from chainer.functions.math import exponential
from chainer import utils
from chainer.utils import type_check


_INV_SQRT_2PI = 1.0 / math.sqrt(2 * math.pi)
_INV_SQRT_2 = 1.0 / math.sqrt(2)

_ndtr_cpu = None


def _ndtr_scalar(x):
    return 0.5 * math.erfc(-x * _INV_SQRT_2)


class Ndtr(function_node.FunctionNode):

    """Element-wise standard normal CDF; its derivative is the normal
    density ``exp(-x ** 2 / 2) / sqrt(2 pi)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'ndtr'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        global _ndtr_cpu
        if _ndtr_cpu is None:
            _ndtr_cpu = _scipy_special.get_or_fallback('ndtr', _ndtr_scalar)
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(_ndtr_cpu(x), x.dtype),

    def forward_gpu(self, inputs):
        self.retain_inputs((0,))
        return cuda.elementwise(
            'T x', 'T y', 'y = normcdf(x)', 'chainer_ndtr',
        )(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return (_INV_SQRT_2PI * exponential.exp(-0.5 * x * x) *
                grad_outputs[0]),


def ndtr(x):
    """Element-wise cumulative distribution function of the standard normal
    distribution, :math:`y_i = \\frac{1}{\\sqrt{2\\pi}}
    \\int_{-\\infty}^{x_i} e^{-t^2/2} dt`.

    .. note::
       On the CPU it uses SciPy (:func:`scipy.special.ndtr`); without SciPy
       it works element by element in Python, slowly, and warns so.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Ndtr().apply((x,))[0]
