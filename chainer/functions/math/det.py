import numpy

from chainer import backend
from chainer.functions.array import reshape
from chainer.functions.array import transpose
from chainer.functions.math import inv
from chainer import function_node
from chainer.utils import type_check


class BatchDet(function_node.FunctionNode):

    """Determinants of a batch of square matrices."""

    @property
    def label(self):
        return 'det'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        a_type, = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            a_type.ndim == 3,
        )
        type_check.expect(a_type.shape[-1] == a_type.shape[-2])

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        a, = inputs
        xp = backend.get_array_module(a)
        if a.dtype == numpy.float16:
            # LAPACK has no half precision: compute in single precision.
            return xp.linalg.det(a.astype(numpy.float32)).astype(a.dtype),
        return xp.asarray(xp.linalg.det(a)),

    def backward(self, indexes, grad_outputs):
        a, = self.get_retained_inputs()
        det, = self.get_retained_outputs()
        gy, = grad_outputs
        # d det(A) / dA = det(A) * A^-T
        inv_a = inv.batch_inv(a)
        scale = reshape.reshape(gy * det, (-1, 1, 1))
        return scale * transpose.transpose(inv_a, (0, 2, 1)),


def batch_det(a):
    """Determinants of a batch of square matrices.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): A float array of
            shape ``(m, n, n)``: ``m`` matrices of size ``n`` by ``n``.

    Returns:
        ~chainer.Variable: The 1-D variable of the ``m`` determinants.

    .. admonition:: Example

        >>> a = np.array([[[1., 2.], [3., 4.]], [[2., 0.], [0., 3.]]],
        ...              np.float32)
        >>> F.batch_det(a).array
        array([-2.,  6.], dtype=float32)

    """
    y, = BatchDet().apply((a,))
    return y


def det(a):
    """Determinant of a square matrix.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): A float array of
            shape ``(n, n)``.

    Returns:
        ~chainer.Variable: The 0-dimensional determinant of ``a``.

    .. admonition:: Example

        >>> a = np.array([[1., 2.], [3., 4.]], np.float32)
        >>> F.det(a).array
        array(-2., dtype=float32)

    """
    shape = (1,) + a.shape[-2:]
    return reshape.reshape(batch_det(reshape.reshape(a, shape)), ())
