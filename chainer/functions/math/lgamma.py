"""Element-wise logarithm of the absolute value of the gamma function."""

from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import _scipy_special
from chainer.functions.math import digamma as digamma_module
from chainer import utils
from chainer.utils import type_check


class LGamma(function_node.FunctionNode):

    """Element-wise ``log |gamma(x)|``; its derivative is ``digamma(x)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'lgamma'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        special = _scipy_special.get('lgamma')
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(special.gammaln(x), x.dtype),

    def forward_gpu(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(
            cuda.cupyx.scipy.special.gammaln(x), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return digamma_module.digamma(x) * grad_outputs[0],


def lgamma(x):
    """Element-wise logarithm of the absolute value of the gamma function,
    :math:`y_i = \\ln |\\Gamma(x_i)|`.

    .. note::
       On the CPU it needs SciPy (:func:`scipy.special.gammaln`); without
       it the forward computation raises :class:`ImportError`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return LGamma().apply((x,))[0]
