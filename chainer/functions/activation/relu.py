import numpy

from chainer import _kernels
from chainer.backends import cuda
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


if cuda.cudnn_enabled:
    _cudnn = cuda.cudnn
    _mode = cuda.libcudnn.CUDNN_ACTIVATION_RELU


class ReLU(function_node.FunctionNode):

    """Rectified linear unit, ``max(x, 0)``."""

    is_elementwise = True
    _use_cudnn = False

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        y = _kernels.call((x,), _kernels.FLOATS, lambda k: (
            _kernels.elementwise(k.relu_forward, x)))
        if y is not None:
            return y,
        return utils.force_array(numpy.maximum(x, 0, dtype=x.dtype)),

    def forward_gpu(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        if cuda.should_use_cudnn('>=auto') and x.flags.c_contiguous:
            self._use_cudnn = True
            return _cudnn.activation_forward(x, _mode),
        return cuda.cupy.maximum(x, 0, dtype=x.dtype),

    def backward(self, indexes, grad_outputs):
        y = self.output_data[0]
        if self._use_cudnn and cuda.should_use_cudnn('>=auto'):
            return ReLUGradCudnn(y).apply(grad_outputs)
        return ReLUGrad2(y).apply(grad_outputs)


class ReLUGrad2(function_node.FunctionNode):

    """Gradient of :class:`ReLU`: ``gy`` where ``b > 0``, else zero.

    ``b`` (the output of ReLU) is a constant, so the gradient of this node
    is itself applied to the incoming gradient.
    """

    is_elementwise = True

    def __init__(self, b):
        self.b = b

    def forward_cpu(self, inputs):
        gy, = inputs
        if self.b.shape == gy.shape:
            gx = _kernels.call((self.b, gy), _kernels.FLOATS, lambda k: (
                _kernels.elementwise(k.relu_backward, self.b, gy)))
            if gx is not None:
                return gx,
        return utils.force_array(gy * (self.b > 0), gy.dtype),

    def forward_gpu(self, inputs):
        gy, = inputs
        return cuda.elementwise(
            'T y, T gy', 'T gx', 'gx = y > 0 ? gy : (T)0',
            'relu_bwd')(self.b, gy),

    def backward(self, indexes, grad_outputs):
        return ReLUGrad2(self.b).apply(grad_outputs)


class ReLUGradCudnn(function_node.FunctionNode):

    """Gradient of :class:`ReLU` computed by cuDNN from the output ``y``."""

    is_elementwise = True

    def __init__(self, y):
        self.y = y

    def forward(self, inputs):
        gy, = inputs
        return _cudnn.activation_backward(self.y, self.y, gy, _mode),

    def backward(self, indexes, grad_outputs):
        return ReLUGrad2(self.y).apply(grad_outputs)


def relu(x):
    """Rectified linear unit, :math:`f(x) = \\max(0, x)`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[-1., 0.], [2., -3.]], np.float32)
        >>> F.relu(x).array
        array([[0., 0.],
               [2., 0.]], dtype=float32)

    """
    y, = ReLU().apply((x,))
    return y
