"""Element-wise Hurwitz zeta function."""

from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import _scipy_special
from chainer.functions.math import sum as sum_module
from chainer import utils
from chainer.utils import type_check
from chainer import variable


class Zeta(function_node.FunctionNode):

    """Element-wise Hurwitz zeta function ``zeta(x, q)`` of a constant
    ``x``; its derivative in ``q`` is ``-x * zeta(x + 1, q)``."""

    def __init__(self, x):
        self._x = x

    @property
    def label(self):
        return 'zeta'

    check_type_forward = type_check._argument_check(('q',), True)

    def forward_cpu(self, inputs):
        special = _scipy_special.get('zeta')
        self.retain_inputs((0,))
        q, = inputs
        return utils.force_array(special.zeta(self._x, q), q.dtype),

    def forward_gpu(self, inputs):
        self.retain_inputs((0,))
        q, = inputs
        return utils.force_array(
            cuda.cupyx.scipy.special.zeta(self._x, q), q.dtype),

    def backward(self, indexes, grad_outputs):
        q, = self.get_retained_inputs()
        gq = grad_outputs[0] * -self._x * zeta(self._x + 1, q)
        return sum_module.sum_to(gq, q.shape),


def zeta(x, q):
    """Element-wise Hurwitz zeta function,
    :math:`y_i = \\zeta(x_i, q_i) = \\sum_{k=0}^\\infty (k + q_i)^{-x_i}`.

    It is differentiable with respect to ``q`` only: ``x`` is taken as a
    constant.

    .. note::
       On the CPU it needs SciPy (:func:`scipy.special.zeta`); without it
       the forward computation raises :class:`ImportError`.

    Args:
        x (float, :ref:`ndarray` or :class:`~chainer.Variable`): Exponents,
            broadcast against ``q``; a variable is taken as its array.
        q (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``q``.
    """
    if isinstance(x, variable.Variable):
        x = x.array
    return Zeta(x).apply((q,))[0]
