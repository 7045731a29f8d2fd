from chainer import backend
from chainer.functions.array import transpose
from chainer.functions.math import inv
from chainer.functions.math import matmul
from chainer import function_node
from chainer.utils import type_check


class Cholesky(function_node.FunctionNode):

    """Cholesky decomposition of a symmetric positive-definite matrix."""

    @property
    def label(self):
        return 'cholesky'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            a_type.ndim == 2,
        )

    def forward(self, inputs):
        self.retain_outputs((0,))
        a, = inputs
        xp = backend.get_array_module(a)
        return xp.linalg.cholesky(a),

    def backward(self, indexes, grad_outputs):
        L, = self.get_retained_outputs()
        gL, = grad_outputs
        xp = backend.get_array_module(L)
        n = L.shape[0]
        # phi(L^T gL): the lower triangle with its diagonal halved.
        mask = xp.tril(xp.ones((n, n), L.dtype))
        mask -= 0.5 * xp.eye(n, dtype=L.dtype)
        phi = matmul.matmul(L, gL, transa=True) * mask
        inv_L = inv.inv(L)
        s = matmul.matmul(inv_L, matmul.matmul(phi, inv_L), transa=True)
        # The input is taken as symmetric: symmetrise the gradient.
        return (s + transpose.transpose(s)) * 0.5,


def cholesky(a):
    """Cholesky decomposition of a symmetric positive-definite matrix.

    Returns the lower-triangular ``L`` with ``a = L L^T``. Only the lower
    triangle of ``a`` is read, and the gradient is symmetric.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): A float array of
            shape ``(n, n)``; float16 is not supported.

    Returns:
        ~chainer.Variable: The lower-triangular factor, of shape ``(n, n)``.

    .. admonition:: Example

        >>> a = np.array([[4., 2.], [2., 5.]], np.float32)
        >>> F.cholesky(a).array
        array([[2., 0.],
               [1., 2.]], dtype=float32)

    """
    y, = Cholesky().apply((a,))
    return y
