from chainer.backends import cuda
from chainer import function_node
from chainer.functions.activation.leaky_relu import _scale_where
from chainer.functions.array import broadcast
from chainer.functions.array import reshape
from chainer.functions.math import sum as sum_module
from chainer import utils
from chainer.utils import type_check


def _fwd_kernel():
    return cuda.elementwise(
        'T x, T cond, T W', 'T y',
        'y = cond >= 0 ? x : (T)(x * W)', 'prelu')


def _get_extended_shape(W, x):
    # W's axes follow the batch axis of x; the trailing axes broadcast.
    return (1,) + W.shape + (1,) * (x.ndim - W.ndim - 1)


def _get_reduce_axes(W, x):
    return (0,) + tuple(range(1 + W.ndim, x.ndim))


def _check_x_and_W(x_type, W_type):
    type_check.expect(
        x_type.dtype.kind == 'f',
        W_type.dtype == x_type.dtype,
        x_type.ndim >= W_type.ndim + 1,
        x_type.shape[1:1 + type_check.eval(W_type.ndim)] == W_type.shape,
    )


class PReLUFunction(function_node.FunctionNode):

    """Parametric rectified linear unit: ``x`` if ``x >= 0``, else
    ``W * x``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'W'))
        _check_x_and_W(*in_types)

    def forward_cpu(self, inputs):
        x, W = inputs
        self.retain_inputs((0, 1))
        W = W.reshape(_get_extended_shape(W, x))
        return _scale_where(x < 0, x, W),

    def forward_gpu(self, inputs):
        x, W = inputs
        self.retain_inputs((0, 1))
        W = W.reshape(_get_extended_shape(W, x))
        return _fwd_kernel()(x, x, W),

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        return PReLUFunctionGrad(
            x.array, _get_reduce_axes(W, x),
            _get_extended_shape(W, x)).apply((x, W, gy))


class PReLUFunctionGrad(function_node.FunctionNode):

    """Gradients of :class:`PReLUFunction` for a fixed sign pattern
    ``cond``: ``(gx, gW)`` from ``(x, W, gy)``.

    With ``reduce_axes=None`` (used for higher-order gradients) ``gW`` is
    left unreduced, of the shape of ``x``.
    """

    def __init__(self, cond, reduce_axes, extended_shape):
        self.cond = cond
        self.reduce_axes = reduce_axes
        self.extended_shape = extended_shape

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'W', 'gy'))
        x_type, W_type, gy_type = in_types
        _check_x_and_W(x_type, W_type)
        type_check.expect(
            gy_type.dtype == x_type.dtype,
            gy_type.shape == x_type.shape,
        )

    def _reduce(self, masked):
        if self.reduce_axes is None:
            return masked
        return utils.force_array(masked.sum(axis=self.reduce_axes))

    def forward_cpu(self, inputs):
        x, W, gy = inputs
        self.retain_inputs((0, 1, 2))
        negative = self.cond < 0
        masked = x * gy
        masked *= negative
        gW = self._reduce(utils.force_array(masked))
        gx = _scale_where(negative, gy, W.reshape(self.extended_shape))
        return gx, gW

    def forward_gpu(self, inputs):
        x, W, gy = inputs
        self.retain_inputs((0, 1, 2))
        masked = cuda.elementwise(
            'T x, T cond, T gy', 'T masked',
            'masked = cond >= 0 ? (T)0 : (T)(x * gy)',
            'prelu_masked')(x, self.cond, gy)
        if self.reduce_axes is None:
            gW = masked.copy()
        else:
            gW = masked.sum(axis=self.reduce_axes)
        gx = _fwd_kernel()(
            gy, self.cond, W.reshape(self.extended_shape), masked)
        return gx, gW

    def backward(self, indexes, grad_outputs):
        x, W, gy = self.get_retained_inputs()
        ggx, ggW = grad_outputs
        if ggW is not None:
            ggW = broadcast.broadcast_to(
                reshape.reshape(ggW, self.extended_shape), x.shape)
            ggW = ggW * (self.cond < 0)
        g_gy = g_W = None
        if ggx is not None:
            g_gy, g_W = PReLUFunctionGrad(
                self.cond, None, self.extended_shape).apply((gy, W, ggx))
        ret = []
        if 0 in indexes:
            ret.append(None if ggW is None else gy * ggW)
        if 1 in indexes:
            ret.append(None if g_W is None else sum_module.sum(
                g_W, axis=self.reduce_axes))
        if 2 in indexes:
            if ggW is not None:
                g_gy = x * ggW if g_gy is None else x * ggW + g_gy
            ret.append(g_gy)
        return ret


def prelu(x, W):
    """Parametric rectified linear unit.

    .. math::
        \\text{PReLU}(x_i) = \\begin{cases}
        x_i & (x_i \\ge 0) \\\\ W_i x_i & (\\text{otherwise})\\end{cases}

    The axes of ``W`` match the axes of ``x`` that follow the first
    (minibatch) axis; any further axes of ``x`` share the same weights.
    For example, ``W`` of shape ``(2, 3)`` goes with ``x`` of shape
    ``(B, 2, 3, S_1, ..., S_N)``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype, with the minibatch along its first axis.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): Weights of the
            dtype of ``x``.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. seealso:: :class:`chainer.links.PReLU`, which holds ``W`` as a
        trainable parameter (see `He et al.
        <https://arxiv.org/abs/1502.01852>`_).

    .. admonition:: Example

        >>> x = np.array([[-3., -2., -1.], [0., 1., 2.]], np.float32)
        >>> W = np.array([0.01, 0.1, 1.], np.float32)
        >>> F.prelu(x, W).array
        array([[-0.03, -0.2 , -1.  ],
               [ 0.  ,  1.  ,  2.  ]], dtype=float32)

    """
    y, = PReLUFunction().apply((x, W))
    return y
