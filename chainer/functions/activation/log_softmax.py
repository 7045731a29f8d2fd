from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer.functions import _numerics
from chainer.functions.activation import softmax
from chainer.functions.array import broadcast
from chainer.functions.math import exponential
from chainer.functions.math import sum as sum_module


if cuda.cudnn_enabled:
    _cudnn = cuda.cudnn
    _algorithm = cuda.libcudnn.CUDNN_SOFTMAX_LOG


# Chainer 7.8 has the array-level log-sum-exp under this name too.
logsumexp = _numerics.logsumexp


def _log_softmax(x, axis=1):
    # log_softmax on an array (cuDNN when enabled).
    if softmax._use_cudnn(x):
        return _cudnn.softmax_forward(x, axis, _algorithm)
    return _numerics.log_softmax(x, axis)


class LogSoftmax(function_node.FunctionNode):

    """Logarithm of the softmax along an axis: ``x - logsumexp(x)``."""

    def __init__(self, axis=1):
        self.axis = axis

    def check_type_forward(self, in_types):
        softmax._check_softmax_input(in_types, self.axis)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return _log_softmax(x, self.axis),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return LogSoftmaxGrad(self.axis).apply((y, grad_outputs[0]))


class LogSoftmaxGrad(function_node.FunctionNode):

    """Gradient of :class:`LogSoftmax` from its output ``y``:
    ``gy - exp(y) * sum(gy)``; differentiable in both ``y`` and ``gy``."""

    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        if softmax._use_cudnn(y):
            return _cudnn.softmax_backward(y, gy, self.axis, _algorithm),
        gx = softmax._grad_kernel(y, gy, self.axis, True)
        if gx is not None:
            return gx,
        xp = backend.get_array_module(y)
        gx = xp.exp(y)
        gx *= gy.sum(axis=self.axis, keepdims=True)
        return xp.subtract(gy, gx, out=gx),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        axis = self.axis
        exp_y = exponential.exp(y)
        ret = []
        if 0 in indexes:
            gy_sum = broadcast.broadcast_to(
                sum_module.sum(gy, axis=axis, keepdims=True), gy.shape)
            ret.append(-ggx * exp_y * gy_sum)
        if 1 in indexes:
            s = broadcast.broadcast_to(
                sum_module.sum(ggx * exp_y, axis=axis, keepdims=True),
                gy.shape)
            ret.append(ggx - s)
        return ret


def log_softmax(x, axis=1):
    """Logarithm of the softmax along an axis.

    For each slice :math:`c = (c_1, \\dots, c_D)` of ``x`` along ``axis`` it
    computes :math:`\\log f(c)_d = c_d - \\log \\sum_{d'} \\exp(c_{d'})`.
    It equals ``log(softmax(x))`` but stays finite where the softmax
    underflows to zero.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype, with at least one dimension.
        axis (int): The axis along which the softmax is taken.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. seealso:: :func:`~chainer.functions.softmax`

    .. admonition:: Example

        >>> x = np.array([[0, 1, 2], [0, 2, 4]], np.float32)
        >>> F.log_softmax(x).array
        array([[-2.40760..., -1.40760..., -0.40760...],
               [-4.14293..., -2.14293..., -0.14293...]], dtype=float32)

    """
    y, = LogSoftmax(axis=axis).apply((x,))
    return y
