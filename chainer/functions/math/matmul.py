import warnings

import numpy

from chainer import backend
from chainer.functions.array import reshape as reshape_module
from chainer.functions.math import sum as sum_module
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


def _matmul(a, b, transa, transb, transout):
    # (op(a) @ op(b)), transposed when transout; op transposes the last two
    # axes of a matrix (or a stack of them) and leaves a vector as it is.
    if transout:
        a, b = b, a
        transa, transb = not transb, not transa
    if transa and a.ndim > 1:
        a = a.swapaxes(-1, -2)
    if transb and b.ndim > 1:
        b = b.swapaxes(-1, -2)
    return backend.get_array_module(a).matmul(a, b)


class MatMul(function_node.FunctionNode):

    """Matrix product of two arrays, with NumPy's ``matmul`` semantics.

    Args:
        transa (bool): Transpose each matrix of the first operand.
        transb (bool): Transpose each matrix of the second operand.
        transc (bool): Transpose each matrix of the result.
        dtype: The dtype of the output; by default, the dtype NumPy gives.
    """

    def __init__(self, transa=False, transb=False, transc=False, dtype=None):
        self.transa = transa
        self.transb = transb
        self.transc = transc
        self.dtype = dtype

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            b_type.dtype.kind == 'f',
            a_type.ndim >= 1,
            b_type.ndim >= 1,
        )
        a_ndim = type_check.eval(a_type.ndim)
        b_ndim = type_check.eval(b_type.ndim)
        if b_ndim == 1:
            a_idx = -2 if self.transa and a_ndim > 1 else -1
            type_check.expect(a_type.shape[a_idx] == b_type.shape[0])
        elif a_ndim == 1:
            b_idx = -1 if self.transb else -2
            type_check.expect(a_type.shape[0] == b_type.shape[b_idx])
        else:
            a_idx = -2 if self.transa else -1
            b_idx = -1 if self.transb else -2
            type_check.expect(a_type.shape[a_idx] == b_type.shape[b_idx])
            type_check.expect_broadcast_shapes(
                a_type.shape[:-2], b_type.shape[:-2])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        y = _matmul(a, b, self.transa, self.transb, self.transc)
        return utils.force_array(y, self.dtype),

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        gy, = grad_outputs
        transa, transb, transc = self.transa, self.transb, self.transc
        # A vector operand is handled as a matrix with one row (a) or one
        # column (b); the output then has that axis of length one.
        a_mat, b_mat = a, b
        if b.ndim == 1:
            b_mat = reshape_module.reshape(b, (-1, 1))
            gy = reshape_module.reshape(gy, gy.shape + (1,))
            transb = transc = False
        if a.ndim == 1:
            a_mat = reshape_module.reshape(a, (1, -1))
            gy = reshape_module.reshape(
                gy, gy.shape[:-1] + (1,) + gy.shape[-1:])
            transa = transc = False

        ret = []
        if 0 in indexes:
            ga, = MatMul(transc, not transb, transa, a.dtype).apply(
                (gy, b_mat))
            ga = sum_module.sum_to(ga, a_mat.shape)
            ret.append(reshape_module.reshape(ga, a.shape))
        if 1 in indexes:
            gb, = MatMul(not transa, transc, transb, b.dtype).apply(
                (a_mat, gy))
            gb = sum_module.sum_to(gb, b_mat.shape)
            ret.append(reshape_module.reshape(gb, b.shape))
        return ret


def matmul(a, b, transa=False, transb=False):
    """Computes the matrix product of two arrays.

    Follows :func:`numpy.matmul`: two vectors give their dot product, two
    matrices their matrix product, and arrays of more dimensions are stacks
    of matrices in their last two axes, whose leading axes broadcast.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): The left operand.
            A vector is taken as a matrix of one row.
        b (:class:`~chainer.Variable` or :ref:`ndarray`): The right operand.
            A vector is taken as a matrix of one column.
        transa (bool): Whether to use the transpose of every matrix of
            ``a``; ignored when ``a`` is a vector.
        transb (bool): Whether to use the transpose of every matrix of
            ``b``; ignored when ``b`` is a vector.

    Returns:
        ~chainer.Variable: The matrix product.

    .. admonition:: Example

        >>> a = np.array([[1, 0], [0, 1]], np.float32)
        >>> b = np.array([[4, 1], [2, 2]], np.float32)
        >>> F.matmul(a, b).array
        array([[4., 1.],
               [2., 2.]], dtype=float32)
        >>> F.matmul(np.ones((5, 1, 3, 2), np.float32),
        ...          np.ones((4, 2, 7), np.float32)).shape
        (5, 4, 3, 7)

    """
    return MatMul(transa=transa, transb=transb).apply((a, b))[0]


def _batch_matmul(a, b, transa, transb, transout):
    # Products of two batches of matrices; a batch of vectors (B, N) is one
    # of (N, 1) matrices.
    a = a.reshape(a.shape[:2] + (-1,))
    b = b.reshape(b.shape[:2] + (-1,))
    return _matmul(a, b, transa, transb, transout)


class BatchMatMul(function_node.FunctionNode):

    """Matrix products of two batches of float32 matrices.

    The node of the deprecated :func:`batch_matmul`.

    Args:
        transa (bool): Transpose each matrix of the first operand.
        transb (bool): Transpose each matrix of the second operand.
    """

    def __init__(self, transa=False, transb=False):
        self.transa = transa
        self.transb = transb

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype == numpy.float32,
            b_type.dtype == numpy.float32,
        )
        for in_type in in_types:
            type_check.expect(in_type.ndim >= 2, in_type.ndim <= 3)
        # The inner length: an axis of each matrix, 1 for a vector's column.
        sizes = []
        for in_type, axis in ((a_type, 1 if self.transa else 2),
                              (b_type, 2 if self.transb else 1)):
            if axis == 2 and type_check.eval(in_type.ndim) == 2:
                sizes.append(1)
            else:
                sizes.append(in_type.shape[axis])
        type_check.expect(sizes[0] == sizes[1])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        return _batch_matmul(a, b, self.transa, self.transb, False),

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        return BatchMatMulGrad(self.transa, self.transb).apply(
            (a, b, grad_outputs[0]))


class BatchMatMulGrad(function_node.FunctionNode):

    """Gradients of :class:`BatchMatMul` with respect to both operands.

    Inputs are ``(a, b, gy)``; outputs are the gradients of ``a`` and
    ``b``, of their shapes.
    """

    def __init__(self, transa=False, transb=False):
        self.transa = transa
        self.transb = transb

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        a, b, gy = inputs
        ga = _batch_matmul(gy, b, False, not self.transb, self.transa)
        gb = _batch_matmul(a, gy, not self.transa, False, self.transb)
        return ga.reshape(a.shape), gb.reshape(b.shape)

    def backward(self, indexes, grad_outputs):
        a, b, gy = self.get_retained_inputs()
        gga, ggb = grad_outputs
        ret = []
        if 0 in indexes or 1 in indexes:
            ga, gb = BatchMatMulGrad(self.transa, self.transb).apply(
                (gga, ggb, gy))
            if 0 in indexes:
                ret.append(ga)
            if 1 in indexes:
                ret.append(gb)
        if 2 in indexes:
            ggy_a, = BatchMatMul(self.transa, self.transb).apply((gga, b))
            ggy_b, = BatchMatMul(self.transa, self.transb).apply((a, ggb))
            ret.append(ggy_a + ggy_b)
        return ret


def batch_matmul(a, b, transa=False, transb=False):
    """Computes the matrix products of two batches of matrices.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): The left operands.
            An array of shape ``(B, N)`` is taken as B matrices of shape
            ``(N, 1)``, one of shape ``(B, M, N)`` as B matrices of shape
            ``(M, N)``.
        b (:class:`~chainer.Variable` or :ref:`ndarray`): The right operands,
            taken as matrices in the same way as ``a``.
        transa (bool): Whether to use the transpose of every matrix of ``a``.
        transb (bool): Whether to use the transpose of every matrix of ``b``.

    Both operands must be float32.

    Returns:
        ~chainer.Variable: The batch of products, a 3-dimensional array.

    .. deprecated:: v3.0.0
       Use :func:`matmul` instead.

    """
    warnings.warn('batch_matmul is deprecated. Use matmul instead.',
                  DeprecationWarning)
    return BatchMatMul(transa=transa, transb=transb).apply((a, b))[0]
