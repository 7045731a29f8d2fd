import numpy

from chainer.backends import cuda
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


if cuda.cudnn_enabled:
    _cudnn = cuda.cudnn
    _mode = cuda.libcudnn.CUDNN_ACTIVATION_CLIPPED_RELU


class ClippedReLU(function_node.FunctionNode):

    """Rectified linear unit clipped at ``z``: ``min(max(0, x), z)``."""

    is_elementwise = True
    _use_cudnn = False

    def __init__(self, z):
        if not isinstance(z, float):
            raise TypeError('z must be float value')
        assert z > 0
        self.cap = z

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        y = numpy.empty_like(x)
        numpy.maximum(x, 0, out=y)
        numpy.minimum(y, self.cap, out=y)
        return y,

    def forward_gpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        if cuda.should_use_cudnn('==always') and x.flags.c_contiguous:
            self._use_cudnn = True
            self.retain_outputs((0,))
            return _cudnn.activation_forward(x, _mode, self.cap),
        return cuda.elementwise(
            'T x, T cap', 'T y', 'y = min(max(x, (T)0), cap)',
            'clipped_relu_fwd')(x, self.cap),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        if self._use_cudnn and cuda.should_use_cudnn('==always'):
            y = self.output_data[0]
            return ClippedReLUGrad3(x, y, self.cap).apply(grad_outputs)
        return ClippedReLUGrad2(x, self.cap).apply(grad_outputs)


def _clipped_relu_grad_cpu(x, cap, gy):
    inside = x > 0
    inside &= x < cap
    return utils.force_array(gy * inside, gy.dtype)


class ClippedReLUGrad2(function_node.FunctionNode):

    """Gradient of :class:`ClippedReLU`: ``gy`` where ``0 < x < z``."""

    is_elementwise = True

    def __init__(self, x, z):
        self.x = x
        self.cap = z

    check_type_forward = type_check._argument_check(('gy',), True)

    def forward_cpu(self, inputs):
        return _clipped_relu_grad_cpu(self.x, self.cap, inputs[0]),

    def forward_gpu(self, inputs):
        return cuda.elementwise(
            'T x, T gy, T z', 'T gx',
            'gx = ((x > 0) & (x < z)) ? gy : (T)0',
            'clipped_relu_bwd')(self.x, inputs[0], self.cap),

    def backward(self, indexes, grad_outputs):
        return ClippedReLUGrad2(self.x, self.cap).apply(grad_outputs)


class ClippedReLUGrad3(function_node.FunctionNode):

    """Gradient of :class:`ClippedReLU` computed by cuDNN on GPU."""

    is_elementwise = True

    def __init__(self, x, y, z):
        self.x = x
        self.y = y
        self.cap = z

    check_type_forward = type_check._argument_check(('gy',), True)

    def forward_cpu(self, inputs):
        return _clipped_relu_grad_cpu(self.x, self.cap, inputs[0]),

    def forward_gpu(self, inputs):
        return _cudnn.activation_backward(
            self.x, self.y, inputs[0], _mode, self.cap),

    def backward(self, indexes, grad_outputs):
        return ClippedReLUGrad3(self.x, self.y, self.cap).apply(
            grad_outputs)


def clipped_relu(x, z=20.0):
    """Clipped rectified linear unit.

    For a cap :math:`z > 0` it computes
    :math:`\\text{ClippedReLU}(x, z) = \\min(\\max(0, x), z)`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.
        z (float): The cap; it must be a positive Python ``float``.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([-3., 1., 5., 30.], np.float32)
        >>> F.clipped_relu(x, z=4.0).array
        array([0., 1., 4., 4.], dtype=float32)

    """
    y, = ClippedReLU(z).apply((x,))
    return y


def relu6(x):
    """Rectified linear unit clipped at six, :math:`\\min(\\max(0, x), 6)`.

    It is :func:`clipped_relu` with ``z=6.0``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([-20., 2., 4., 10.], np.float32)
        >>> F.relu6(x).array
        array([0., 2., 4., 6.], dtype=float32)

    """
    y, = ClippedReLU(6.0).apply((x,))
    return y
