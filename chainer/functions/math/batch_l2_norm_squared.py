from chainer import backend
from chainer.functions.math import sum as sum_module
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class BatchL2NormSquared(function_node.FunctionNode):

    """Squared L2 norm of each sample of a mini-batch."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
        )

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        x = x.reshape(
            x.shape[0], int(utils.size_of_shape(x.shape[1:])))
        return (x * x).sum(axis=1),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return BatchL2NormSquaredGrad().apply((x, grad_outputs[0]))


class BatchL2NormSquaredGrad(function_node.FunctionNode):

    """Gradient of :class:`BatchL2NormSquared`: ``2 * x * gy``, where each
    ``gy[i]`` scales the sample ``x[i]``."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gy = gy.reshape((gy.shape[0],) + (1,) * (x.ndim - 1))
        xp = backend.get_array_module(x)
        gx = xp.multiply(x, gy)
        gx *= 2
        return gx,

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.extend(BatchL2NormSquaredGrad().apply((ggx, gy)))
        if 1 in indexes:
            axes = tuple(range(1, x.ndim))
            ret.append(sum_module.sum(x * ggx, axis=axes) * 2)
        return ret


def batch_l2_norm_squared(x):
    """Squared L2 (Euclidean) norm of each sample of a mini-batch.

    The first axis of ``x`` is the batch axis; the norm of each sample is
    taken over all its other axes, and the batch is not reduced.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): A float array of
            two or more dimensions.

    Returns:
        ~chainer.Variable: The 1-D variable of the squared norms, of
        length ``x.shape[0]``.

    .. admonition:: Example

        >>> x = np.array([[1., 2.], [3., 4.]], np.float32)
        >>> F.batch_l2_norm_squared(x).array
        array([ 5., 25.], dtype=float32)

    """
    y, = BatchL2NormSquared().apply((x,))
    return y
