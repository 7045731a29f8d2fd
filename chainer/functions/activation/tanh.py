import numpy

from chainer import _kernels
from chainer.backends import cuda
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


if cuda.cudnn_enabled:
    _cudnn = cuda.cudnn
    _mode = cuda.libcudnn.CUDNN_ACTIVATION_TANH

# NumPy's own float32 tanh is faster than the compiled kernel's.
_KERNEL_DTYPES = (numpy.dtype(numpy.float64),)


class Tanh(function_node.FunctionNode):

    """Hyperbolic tangent."""

    is_elementwise = True
    _use_cudnn = False

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        y = _kernels.call((x,), _KERNEL_DTYPES, lambda k: (
            _kernels.elementwise(k.tanh_forward, x)))
        if y is not None:
            return y,
        return utils.force_array(numpy.tanh(x)),

    def forward_gpu(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        if cuda.should_use_cudnn('==always') and x.flags.c_contiguous:
            self._use_cudnn = True
            self.retain_inputs((0,))
            return _cudnn.activation_forward(x, _mode),
        return cuda.cupy.tanh(x),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array if self._use_cudnn else None
        y, = self.get_retained_outputs()
        return TanhGrad(x).apply((y, grad_outputs[0]))


class TanhGrad(function_node.FunctionNode):

    """Gradient of :class:`Tanh` from its output: ``gy * (1 - y * y)``.

    Args:
        x: The input array of the tanh, used by cuDNN; ``None`` otherwise.
    """

    is_elementwise = True

    def __init__(self, x):
        self.x = x

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        if y.shape == gy.shape:
            gx = _kernels.call((y, gy), _kernels.FLOATS, lambda k: (
                _kernels.elementwise(k.tanh_backward, y, gy)))
            if gx is not None:
                return gx,
        gx = y.dtype.type(1) - y * y
        gx *= gy
        return utils.force_array(gx),

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        if (cuda.should_use_cudnn('==always') and self.x is not None
                and gy.flags.c_contiguous):
            return _cudnn.activation_backward(self.x, y, gy, _mode),
        return cuda.elementwise(
            'T y, T gy', 'T gx', 'gx = gy * (1 - y * y)',
            'tanh_bwd')(y, gy),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        y_ggx = y * ggx
        return -2 * gy * y_ggx, ggx - y * y_ggx


def tanh(x):
    """Element-wise hyperbolic tangent, :math:`f(x) = \\tanh(x)`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([-1., 1., 3.], np.float32)
        >>> F.tanh(x).array
        array([-0.7615942,  0.7615942,  0.9950548], dtype=float32)

    """
    y, = Tanh().apply((x,))
    return y
