from chainer import backend
from chainer import function_node
from chainer.functions.loss import _reduce_option
from chainer.functions.math import matmul
from chainer.functions.math import sum as sum_module
from chainer import utils
from chainer.utils import type_check


def _centered(x):
    # x minus its mean over the batch axis, differentiably
    mean = sum_module.sum(x, axis=0, keepdims=True) * (1. / len(x))
    return x - mean


class CrossCovariance(function_node.FunctionNode):

    """Cross-covariance loss of two batches of vectors."""

    def __init__(self, reduce='half_squared_sum'):
        _reduce_option.check(
            reduce, ('half_squared_sum', 'no'), capitalize=True)
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('y', 'z'))
        y_type, z_type = in_types
        type_check.expect(
            y_type.dtype.kind == 'f',
            y_type.dtype == z_type.dtype,
            y_type.ndim == 2,
            z_type.ndim == 2,
        )
        type_check.expect(y_type.shape[0] == z_type.shape[0])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, z = inputs
        y_centered = y - y.mean(axis=0, keepdims=True)
        z_centered = z - z.mean(axis=0, keepdims=True)
        covariance = y_centered.T.dot(z_centered)
        covariance /= y.dtype.type(len(y))
        if self.reduce == 'half_squared_sum':
            xp = backend.get_array_module(*inputs)
            cost = xp.vdot(covariance, covariance) * y.dtype.type(0.5)
            return utils.force_array(cost, y.dtype),
        return covariance,

    def backward(self, indexes, grad_outputs):
        y, z = self.get_retained_inputs()
        gcost, = grad_outputs
        y_centered = _centered(y)
        z_centered = _centered(z)
        n = len(y)
        ret = []
        if self.reduce == 'half_squared_sum':
            # the covariance scaled by gcost / n, the gradient of its norm
            covariance = matmul.matmul(y_centered, z_centered, transa=True)
            covariance = covariance * (gcost * (1. / (n * n)))
            if 0 in indexes:
                ret.append(matmul.matmul(z_centered, covariance, transb=True))
            if 1 in indexes:
                ret.append(matmul.matmul(y_centered, covariance))
        else:
            gcost_div_n = gcost * (1. / n)
            if 0 in indexes:
                ret.append(
                    matmul.matmul(z_centered, gcost_div_n, transb=True))
            if 1 in indexes:
                ret.append(matmul.matmul(y_centered, gcost_div_n))
        return ret


def cross_covariance(y, z, reduce='half_squared_sum'):
    """Cross-covariance penalty of two batches of vectors.

    With :math:`C` the cross-covariance matrix of ``y`` and ``z`` over the
    batch axis, the penalty is half the squared Frobenius norm of
    :math:`C`. It can be used to disentangle variables; see
    https://arxiv.org/abs/1412.6583v3.

    Args:
        y (:class:`~chainer.Variable` or :ref:`ndarray`): A matrix of shape
            :math:`(B, M)` whose first axis is the batch.
        z (:class:`~chainer.Variable` or :ref:`ndarray`): A matrix of shape
            :math:`(B, N)`, of the dtype of ``y``.
        reduce (str): ``'half_squared_sum'`` (default) gives the penalty;
            ``'no'`` gives the :math:`(M, N)` matrix :math:`C` itself. Any
            other value raises :class:`ValueError`.

    Returns:
        ~chainer.Variable: A scalar penalty, or the cross-covariance matrix
        when ``reduce`` is ``'no'``.

    .. admonition:: Example

        >>> y = np.array([[1., 0.], [-1., 0.]], np.float32)
        >>> z = np.array([[2.], [0.]], np.float32)
        >>> F.cross_covariance(y, z, reduce='no').array
        array([[1.],
               [0.]], dtype=float32)
        >>> F.cross_covariance(y, z).array
        array(0.5, dtype=float32)

    """
    return CrossCovariance(reduce).apply((y, z))[0]
