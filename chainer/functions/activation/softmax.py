import numpy

from chainer import _kernels
from chainer.backends import cuda
from chainer import function_node
from chainer.functions import _numerics
from chainer.functions.array import broadcast
from chainer.functions.math import sum as sum_module
from chainer.utils import type_check


if cuda.cudnn_enabled:
    _cudnn = cuda.cudnn
    _algorithm = cuda.libcudnn.CUDNN_SOFTMAX_ACCURATE


def _check_softmax_input(in_types, axis):
    type_check._argname(in_types, ('x',))
    x_type, = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        -x_type.ndim <= axis,
        axis < x_type.ndim,
    )


def _use_cudnn(x):
    return isinstance(x, cuda.ndarray) and cuda.should_use_cudnn('>=auto')


def _grad_kernel(y, gy, axis, log):
    # The compiled gradient of the (log-)softmax from its output, for
    # float32 or float64 NumPy arrays, or None.
    return _kernels.call((y, gy), _kernels.FLOATS, lambda k: (
        k.softmax_backward(numpy.ascontiguousarray(y),
                           numpy.ascontiguousarray(gy), axis, log)))


class Softmax(function_node.FunctionNode):

    """Softmax along an axis: ``exp(x) / sum(exp(x))``."""

    def __init__(self, axis=1):
        self.axis = axis

    def check_type_forward(self, in_types):
        _check_softmax_input(in_types, self.axis)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        axis = self.axis
        if _use_cudnn(x):
            return _cudnn.softmax_forward(x, axis, _algorithm),
        return _numerics.softmax(x, axis),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return _SoftmaxGrad(self.axis).apply((y, grad_outputs[0]))


class _SoftmaxGrad(function_node.FunctionNode):

    # gx = y * gy - y * sum(y * gy); differentiable in both y and gy.

    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        if _use_cudnn(y):
            return _cudnn.softmax_backward(y, gy, self.axis, _algorithm),
        gx = _grad_kernel(y, gy, self.axis, False)
        if gx is not None:
            return gx,
        gx = y * gy
        s = gx.sum(axis=self.axis, keepdims=True)
        gx -= y * s
        return gx,

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        axis = self.axis
        shape = gy.shape
        s_ggx_y = sum_module.sum(ggx * y, axis=axis, keepdims=True)
        ga = ggx - broadcast.broadcast_to(s_ggx_y, shape)
        ret = []
        if 0 in indexes:
            s_y_gy = sum_module.sum(y * gy, axis=axis, keepdims=True)
            ret.append(ga * gy - ggx * broadcast.broadcast_to(s_y_gy, shape))
        if 1 in indexes:
            ret.append(ga * y)
        return ret


def softmax(x, axis=1):
    """Softmax along an axis.

    For each slice :math:`c = (c_1, \\dots, c_D)` of ``x`` along ``axis`` it
    computes :math:`f(c)_d = \\exp(c_d) / \\sum_{d'} \\exp(c_{d'})`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype, with at least one dimension.
        axis (int): The axis along which the softmax is taken.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``;
        it sums to one along ``axis``.

    .. seealso:: :func:`~chainer.functions.log_softmax`

    .. admonition:: Example

        >>> x = np.array([[0, 1, 2], [0, 2, 4]], np.float32)
        >>> F.softmax(x, axis=1).array
        array([[0.09003057, 0.24472848, 0.66524094],
               [0.01587624, 0.11731043, 0.86681336]], dtype=float32)
        >>> F.sum(F.softmax(x, axis=1), axis=1).array
        array([1., 1.], dtype=float32)

    """
    y, = Softmax(axis=axis).apply((x,))
    return y
