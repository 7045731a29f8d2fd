import numpy

from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import exponential
from chainer.utils import type_check


class Softplus(function_node.FunctionNode):

    """Softplus, ``log(1 + exp(beta * x)) / beta``."""

    is_elementwise = True

    def __init__(self, beta=1.0):
        self.beta = float(beta)
        self.beta_inv = float(1.0 / beta)

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        # max(bx, 0) + log(1 + exp(-|bx|)) never overflows.
        bx = numpy.empty_like(x)
        numpy.multiply(x, self.beta, out=bx)
        t = numpy.empty_like(x)
        numpy.fabs(bx, out=t)
        numpy.negative(t, out=t)
        numpy.exp(t, out=t)
        numpy.log1p(t, out=t)
        numpy.fmax(bx, 0, out=bx)
        bx += t
        bx *= self.beta_inv
        return bx,

    def forward_gpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return cuda.elementwise(
            'T x, T beta, T beta_inv', 'T y',
            '''
            T bx = beta * x;
            y = (max(bx, (T)0) + log1p(exp(-fabs(bx)))) * beta_inv;
            ''',
            'softplus_fwd')(x, self.beta, self.beta_inv),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return SoftplusGrad((self.beta,)).apply((x, grad_outputs[0]))


class SoftplusGrad(function_node.FunctionNode):

    """Gradient of :class:`Softplus`: ``gy * sigmoid(beta * x)``.

    Args:
        inputs (tuple): A one-element tuple holding ``beta``.
    """

    is_elementwise = True

    def __init__(self, inputs):
        self.beta = inputs[0]

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        x_type, gy_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            gy_type.dtype.kind == 'f',
        )

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        # 1 - 1 / (1 + exp(beta * x)), in place in one fresh array.
        gx = numpy.empty_like(x)
        numpy.multiply(x, self.beta, out=gx)
        numpy.exp(gx, out=gx)
        gx += 1
        numpy.divide(1, gx, out=gx)
        numpy.subtract(1, gx, out=gx)
        gx *= gy
        return gx,

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return cuda.elementwise(
            'T x, T gy, T beta', 'T gx',
            'gx = (1 - 1 / (1 + exp(beta * x))) * gy',
            'softplus_bwd')(x, gy, self.beta),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        e = exponential.exp(self.beta * x)
        gx = ggx * gy * self.beta * e / (1 + e) ** 2
        ggy, = SoftplusGrad((self.beta,)).apply((x, ggx))
        return gx, ggy


def softplus(x, beta=1.0):
    """Element-wise softplus, a smooth approximation of ReLU.

    .. math:: f(x) = \\frac{1}{\\beta} \\log(1 + \\exp(\\beta x)).

    The larger :math:`\\beta`, the closer the curve is to ReLU.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.
        beta (float): The parameter :math:`\\beta`.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([-2., 0., 2.], np.float32)
        >>> F.softplus(x).array
        array([0.126928 , 0.6931472, 2.126928 ], dtype=float32)

    """
    y, = Softplus(beta=beta).apply((x,))
    return y
