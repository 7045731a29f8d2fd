import numpy

from chainer.backends import cuda
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class HardSigmoid(function_node.FunctionNode):

    """Hard sigmoid: ``clip(0.2 * x + 0.5, 0, 1)``."""

    is_elementwise = True

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        y = numpy.empty_like(x)
        numpy.multiply(x, 0.2, out=y)
        y += 0.5
        numpy.clip(y, 0.0, 1.0, out=y)
        return y,

    def forward_gpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return cuda.elementwise(
            'T x', 'T y', 'y = min(1.0, max(0.0, x * 0.2 + 0.5))',
            'hard_sigmoid_fwd')(x),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        return HardSigmoidGrad(x).apply(grad_outputs)


class HardSigmoidGrad(function_node.FunctionNode):

    """Gradient of :class:`HardSigmoid`: ``0.2 * gy`` where
    ``|x| < 2.5``, else zero."""

    is_elementwise = True

    def __init__(self, x):
        self.x = x

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('gy',))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[0].dtype == self.x.dtype,
        )

    def forward_cpu(self, inputs):
        gy, = inputs
        x = self.x
        inside = x > -2.5
        inside &= x < 2.5
        gx = inside * gy
        gx *= 0.2
        return utils.force_array(gx, x.dtype),

    def forward_gpu(self, inputs):
        return cuda.elementwise(
            'T x, T gy', 'T gx', 'gx = fabs(x) < 2.5 ? 0.2 * gy : 0',
            'hard_sigmoid_bwd')(self.x, inputs[0]),

    def backward(self, indexes, grad_outputs):
        return HardSigmoidGrad(self.x).apply(grad_outputs)


def hard_sigmoid(x):
    """Element-wise hard sigmoid, a piecewise linear sigmoid.

    .. math::
        f(x) = \\left \\{ \\begin{array}{ll}
        0 & {\\rm if}~ x < -2.5 \\\\
        0.2 x + 0.5 & {\\rm if}~ -2.5 \\le x \\le 2.5 \\\\
        1 & {\\rm if}~ 2.5 < x.
        \\end{array} \\right.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``,
        with values in :math:`[0, 1]`.

    .. admonition:: Example

        >>> x = np.array([-2.6, -1., 0., 1., 2.6])
        >>> F.hard_sigmoid(x).array
        array([0. , 0.3, 0.5, 0.7, 1. ])

    """
    y, = HardSigmoid().apply((x,))
    return y
