from chainer import _kernels
from chainer.backends import cuda
from chainer import function_node
from chainer.functions import _numerics
from chainer import utils
from chainer.utils import type_check


if cuda.cudnn_enabled:
    _cudnn = cuda.cudnn
    _mode = cuda.libcudnn.CUDNN_ACTIVATION_SIGMOID


class Sigmoid(function_node.FunctionNode):

    """Logistic sigmoid, ``1 / (1 + exp(-x))``."""

    is_elementwise = True
    _use_cudnn = False

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        y = _kernels.call((x,), _kernels.FLOATS, lambda k: (
            _kernels.elementwise(k.sigmoid_forward, x)))
        if y is not None:
            return y,
        return _numerics.sigmoid(x),

    def forward_gpu(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        if cuda.should_use_cudnn('==always') and x.flags.c_contiguous:
            self._use_cudnn = True
            self.retain_inputs((0,))
            return _cudnn.activation_forward(x, _mode),
        return _numerics.sigmoid(x),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array if self._use_cudnn else None
        y, = self.get_retained_outputs()
        return SigmoidGrad((x,)).apply((y, grad_outputs[0]))


class SigmoidGrad(function_node.FunctionNode):

    """Gradient of :class:`Sigmoid` from its output: ``gy * y * (1 - y)``.

    Args:
        inputs (tuple): A one-element tuple holding the input array of the
            sigmoid for cuDNN, or ``None``.
    """

    is_elementwise = True

    def __init__(self, inputs):
        self.x = inputs[0]

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('y', 'gy'))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[1].dtype.kind == 'f',
        )

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        if y.shape == gy.shape:
            gx = _kernels.call((y, gy), _kernels.FLOATS, lambda k: (
                _kernels.elementwise(k.sigmoid_backward, y, gy)))
            if gx is not None:
                return gx,
        gx = gy * y
        gx *= y.dtype.type(1) - y
        return utils.force_array(gx),

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        if (cuda.should_use_cudnn('==always') and self.x is not None
                and gy.flags.c_contiguous and self.x.flags.c_contiguous):
            return _cudnn.activation_backward(self.x, y, gy, _mode),
        return cuda.elementwise(
            'T y, T gy', 'T gx', 'gx = gy * y * (1 - y)',
            'sigmoid_bwd')(y, gy),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        return ggx * gy * (1 - 2 * y), ggx * y * (1 - y)


def sigmoid(x):
    """Element-wise logistic sigmoid, :math:`f(x) = (1 + \\exp(-x))^{-1}`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``,
        with values in :math:`[0, 1]`.

    .. admonition:: Example

        >>> x = np.array([-2., 0., 2.], np.float32)
        >>> F.sigmoid(x).array
        array([0.11920291, 0.5       , 0.8807971 ], dtype=float32)

    """
    y, = Sigmoid().apply((x,))
    return y
