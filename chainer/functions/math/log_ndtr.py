"""Element-wise logarithm of the standard normal cumulative distribution
function."""

import math

from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import _scipy_special
from chainer.functions.math import erfcx as erfcx_module
from chainer import utils
from chainer.utils import type_check


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_MINUS_INV_SQRT_2 = -1.0 / math.sqrt(2)


class LogNdtr(function_node.FunctionNode):

    """Element-wise ``log(ndtr(x))``, accurate in the far left tail; its
    derivative is ``sqrt(2 / pi) / erfcx(-x / sqrt(2))``."""

    is_elementwise = True

    @property
    def label(self):
        return 'log_ndtr'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        special = _scipy_special.get('log_ndtr')
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(special.log_ndtr(x), x.dtype),

    def forward_gpu(self, inputs):
        self.retain_inputs((0,))
        # ndtr(x) = erfcx(-x / sqrt(2)) * exp(-x ** 2 / 2) / 2 for x <= 0,
        # and 1 - ndtr(-x) on the right, where log1p keeps the precision.
        return cuda.elementwise(
            'T x', 'T y',
            '''
            if (x > 0) {
                y = log1p(-normcdf(-x));
            } else {
                y = log(0.5 * erfcx(-0.7071067811865476 * x)) - 0.5 * x * x;
            }
            ''',
            'chainer_log_ndtr',
        )(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return (_SQRT_2_OVER_PI /
                erfcx_module.erfcx(_MINUS_INV_SQRT_2 * x) * grad_outputs[0]),


def log_ndtr(x):
    """Element-wise logarithm of the cumulative distribution function of
    the standard normal distribution,
    :math:`y_i = \\ln \\mathrm{ndtr}(x_i)`.

    It stays accurate for large negative :math:`x_i`, where ``ndtr``
    underflows.

    .. note::
       On the CPU it needs SciPy (:func:`scipy.special.log_ndtr`); without
       it the forward computation raises :class:`ImportError`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return LogNdtr().apply((x,))[0]
