from chainer import backend
from chainer import function
from chainer.functions.loss import _reduce_option
from chainer import utils
from chainer.utils import type_check


class DeCov(function.Function):

    """DeCov loss (https://arxiv.org/abs/1511.06068)."""

    def __init__(self, reduce='half_squared_sum'):
        self.h_centered = None
        self.covariance = None
        _reduce_option.check(reduce, ('half_squared_sum', 'no'))
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('h',))
        h_type, = in_types
        type_check.expect(
            h_type.dtype.kind == 'f',
            h_type.ndim == 2,
        )

    def forward(self, inputs):
        self.retain_inputs(())
        xp = backend.get_array_module(*inputs)
        h, = inputs
        self.h_centered = h - h.mean(axis=0, keepdims=True)
        covariance = self.h_centered.T.dot(self.h_centered)
        xp.fill_diagonal(covariance, 0)
        covariance /= h.dtype.type(len(h))
        self.covariance = covariance
        if self.reduce == 'half_squared_sum':
            cost = xp.vdot(covariance, covariance) * h.dtype.type(0.5)
            return utils.force_array(cost, h.dtype),
        return covariance,

    def backward(self, inputs, grad_outputs):
        xp = backend.get_array_module(*grad_outputs)
        gcost, = grad_outputs
        scale = gcost.dtype.type(1. / len(self.h_centered))
        if self.reduce == 'half_squared_sum':
            gh = self.h_centered.dot(self.covariance)
            gh *= 2 * scale * gcost
        else:
            gcov = gcost * scale
            xp.fill_diagonal(gcov, 0)
            gh = self.h_centered.dot(gcov + gcov.T)
        return gh,


def decov(h, reduce='half_squared_sum'):
    """DeCov loss: the cross-covariance of the units of a hidden layer.

    With :math:`C` the covariance matrix of the columns of ``h`` over the
    batch axis, its diagonal set to zero, the loss is half the squared
    Frobenius norm of :math:`C`. It penalizes correlated activations; see
    https://arxiv.org/abs/1511.06068.

    Args:
        h (:class:`~chainer.Variable` or :ref:`ndarray`): A matrix of shape
            :math:`(B, N)` whose first axis is the batch.
        reduce (str): ``'half_squared_sum'`` (default) gives the loss;
            ``'no'`` gives the :math:`(N, N)` matrix :math:`C` itself. Any
            other value raises :class:`ValueError`.

    Returns:
        ~chainer.Variable: A scalar loss, or the covariance matrix when
        ``reduce`` is ``'no'``.

    .. admonition:: Example

        >>> h = np.array([[1., 2.], [-1., 0.]], np.float32)
        >>> F.decov(h, reduce='no').array
        array([[0., 1.],
               [1., 0.]], dtype=float32)
        >>> F.decov(h).array
        array(1., dtype=float32)

    """
    return DeCov(reduce)(h)
