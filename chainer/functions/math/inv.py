import numpy

from chainer import backend
from chainer.functions.math import matmul
from chainer import function_node
from chainer.utils import type_check


def _inv(a):
    xp = backend.get_array_module(a)
    try:
        if a.dtype == numpy.float16:
            # LAPACK has no half precision: compute in single precision.
            return xp.linalg.inv(a.astype(numpy.float32)).astype(a.dtype)
        return xp.linalg.inv(a)
    except numpy.linalg.LinAlgError as e:
        raise ValueError('Input has singular matrices.') from e


def _inv_backward(invx, gy):
    # d(A^-1) = -A^-1 dA A^-1, so gA = -(A^-1)^T gy (A^-1)^T.
    return -matmul.matmul(
        invx, matmul.matmul(gy, invx, transb=True), transa=True)


class Inv(function_node.FunctionNode):

    """Inverse of a square matrix."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            a_type.ndim == 2,
        )
        type_check.expect(a_type.shape[0] == a_type.shape[1])

    def forward(self, inputs):
        self.retain_outputs((0,))
        return _inv(inputs[0]),

    def backward(self, indexes, grad_outputs):
        invx, = self.get_retained_outputs()
        return _inv_backward(invx, grad_outputs[0]),


class BatchInv(function_node.FunctionNode):

    """Inverses of a batch of square matrices."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            a_type.ndim == 3,
        )
        type_check.expect(a_type.shape[-1] == a_type.shape[-2])

    def forward(self, inputs):
        self.retain_outputs((0,))
        return _inv(inputs[0]),

    def backward(self, indexes, grad_outputs):
        invx, = self.get_retained_outputs()
        return _inv_backward(invx, grad_outputs[0]),


def inv(a):
    """Inverse of a square matrix.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): A float array of
            shape ``(n, n)``.

    Returns:
        ~chainer.Variable: The inverse of ``a``, of shape ``(n, n)``.

    Raises:
        ValueError: If ``a`` is singular (checked on the CPU only).

    .. admonition:: Example

        >>> a = np.array([[2., 0.], [0., 4.]], np.float32)
        >>> F.inv(a).array
        array([[0.5 , 0.  ],
               [0.  , 0.25]], dtype=float32)

    """
    y, = Inv().apply((a,))
    return y


def batch_inv(a):
    """Inverses of a batch of square matrices.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): A float array of
            shape ``(m, n, n)``: ``m`` matrices of size ``n`` by ``n``.

    Returns:
        ~chainer.Variable: The inverse of each matrix, of shape
        ``(m, n, n)``.

    Raises:
        ValueError: If a matrix is singular (checked on the CPU only).

    """
    y, = BatchInv().apply((a,))
    return y
