import numpy

from chainer import backend
from chainer.functions.math import sum as sum_module
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class NormalizeL2(function_node.FunctionNode):

    """L2 normalization: ``y = x / (||x|| + eps)`` along given axes."""

    def __init__(self, eps=1e-5, axis=1):
        self.eps = eps
        if isinstance(axis, int):
            axis = axis,
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        for axis in self.axis:
            if axis >= 0:
                type_check.expect(x_type.ndim > axis)
            else:
                type_check.expect(x_type.ndim >= -axis)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        if x.dtype == numpy.float16:
            # Squares of float16 overflow early.
            xc = x.astype(numpy.float32)
        else:
            xc = x
        norm = xp.sqrt(xp.sum(xp.square(xc), axis=self.axis, keepdims=True))
        norm += xc.dtype.type(self.eps)
        return utils.force_array(xc / norm, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        axis = self.axis

        # With n = ||x|| and norm = n + eps,
        #   gx = gy / norm - x * sum(x * gy) / (n * norm ** 2).
        # The second term vanishes with x; zero vectors get n = 1 there
        # so that neither term divides by zero, and the gradient stays
        # differentiable.
        squared_norm = sum_module.sum(x * x, axis=axis, keepdims=True)
        zero = squared_norm.array == 0
        if zero.any():
            zero = zero.astype(x.dtype)
            n = (squared_norm + zero) ** 0.5
            norm = n - zero + self.eps
        else:
            n = squared_norm ** 0.5
            norm = n + self.eps
        x_gy = sum_module.sum(x * gy, axis=axis, keepdims=True)
        gx = (gy - x * (x_gy / (n * norm))) / norm
        return gx,


def normalize(x, eps=1e-5, axis=1):
    """Normalizes an input by its L2 norm.

    Divides ``x`` by its L2 norm along the given axes (plus ``eps``). For a
    matrix ``x`` of shape ``(N, K)`` and ``axis=1``, each row is normalized:

    .. math::
        \\mathbf{y}_i = \\frac{\\mathbf{x}_i}{\\|\\mathbf{x}_i\\|_2 +
            \\epsilon}.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        eps (float): Added to the norm to avoid dividing by zero for zero
            vectors.
        axis (int or tuple of int): The axes along which the norm is
            computed. The default ``1`` is kept for backward compatibility.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[3, 4], [0, 0]], np.float32)
        >>> y = F.normalize(x)
        >>> np.round(y.array, 5)
        array([[0.6, 0.8],
               [0. , 0. ]], dtype=float32)

    """
    return NormalizeL2(eps, axis).apply((x,))[0]
