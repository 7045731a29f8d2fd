import numpy

from chainer.backends import cuda
from chainer import function_node
from chainer.functions import _numerics
from chainer import utils
from chainer.utils import type_check


class ELU(function_node.FunctionNode):

    """Exponential linear unit: ``x`` if ``x > 0``, else
    ``alpha * (exp(x) - 1)``."""

    is_elementwise = True

    def __init__(self, alpha=1.0):
        self.alpha = float(alpha)

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        x, = inputs
        if self.alpha < 0:
            self.retain_inputs((0,))
        self.retain_outputs((0,))
        # max(x, 0) + alpha * expm1(min(x, 0)) picks exactly one branch
        # per element, without boolean indexing.
        y = numpy.empty_like(x)
        numpy.minimum(x, 0, out=y)
        _numerics.rounded(numpy.expm1, y)
        y *= self.alpha
        y += numpy.maximum(x, 0)
        return y,

    def forward_gpu(self, inputs):
        x, = inputs
        if self.alpha < 0:
            self.retain_inputs((0,))
        self.retain_outputs((0,))
        return cuda.elementwise(
            'T x, T alpha', 'T y',
            'y = x > 0 ? x : (T)(alpha * expm1(x))',
            'elu_fwd')(x, self.alpha),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        if self.alpha < 0:
            cond = self.get_retained_inputs()[0].array
        else:
            cond = y.array
        gy, = grad_outputs
        return ELUGrad(self.alpha, cond).apply((y,))[0] * gy,


class ELUGrad(function_node.FunctionNode):

    """Derivative of :class:`ELU` in terms of its output ``y``: ``1`` where
    ``cond > 0``, else ``y + alpha``."""

    is_elementwise = True

    def __init__(self, alpha, cond):
        self.alpha = alpha
        self.cond = cond

    def forward_cpu(self, inputs):
        y, = inputs
        gx = numpy.where(self.cond > 0, y.dtype.type(1), y + self.alpha)
        return utils.force_array(gx, y.dtype),

    def forward_gpu(self, inputs):
        y, = inputs
        return cuda.elementwise(
            'T y, T alpha, T cond', 'T gx',
            'gx = cond > 0 ? (T)1 : (T)(y + alpha)',
            'elu_bwd')(y, self.alpha, self.cond),

    def backward(self, indexes, grad_outputs):
        ggx, = grad_outputs
        return ggx * (self.cond <= 0),


def elu(x, alpha=1.0):
    """Exponential linear unit.

    For a parameter :math:`\\alpha` it computes

    .. math::
        f(x) = \\left \\{ \\begin{array}{ll}
        x & {\\rm if}~ x > 0 \\\\
        \\alpha (\\exp(x) - 1) & {\\rm if}~ x \\le 0.
        \\end{array} \\right.

    See `Clevert et al. <https://arxiv.org/abs/1511.07289>`_.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.
        alpha (float): The parameter :math:`\\alpha`.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[-1., 0.], [2., -3.]], np.float32)
        >>> F.elu(x).array
        array([[-0.63212055,  0.        ],
               [ 2.        , -0.95021296]], dtype=float32)

    """
    y, = ELU(alpha=alpha).apply((x,))
    return y
