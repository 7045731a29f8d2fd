"""Element-wise digamma function."""

from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import _scipy_special
from chainer.functions.math import polygamma as polygamma_module
from chainer import utils
from chainer.utils import type_check


class DiGamma(function_node.FunctionNode):

    """Element-wise digamma function, the derivative of ``lgamma``; its
    own derivative is ``polygamma(1, x)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'digamma'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        special = _scipy_special.get('digamma')
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(special.digamma(x), x.dtype),

    def forward_gpu(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(
            cuda.cupyx.scipy.special.digamma(x), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        xp = backend.get_array_module(x.array)
        one = xp.array(1)
        return polygamma_module.polygamma(one, x) * grad_outputs[0],


def digamma(x):
    """Element-wise digamma function,
    :math:`y_i = \\frac{d}{dx_i} \\ln \\Gamma(x_i)`.

    .. note::
       On the CPU it needs SciPy (:func:`scipy.special.digamma`); without
       it the forward computation raises :class:`ImportError`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return DiGamma().apply((x,))[0]
