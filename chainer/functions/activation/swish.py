from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer.functions import _numerics
from chainer.functions.activation import sigmoid
from chainer.functions.array import broadcast
from chainer.functions.array import reshape
from chainer.functions.math import sum as sum_module
from chainer import utils
from chainer.utils import type_check
from chainer import variable


def _get_extended_shape(beta, x):
    # beta's axes follow the batch axis of x; the trailing axes broadcast.
    return (1,) + beta.shape + (1,) * (x.ndim - beta.ndim - 1)


def _get_reduction_axes(beta, x):
    return (0,) + tuple(range(1 + beta.ndim, x.ndim))


class Swish(function_node.FunctionNode):

    """Swish activation, ``x * sigmoid(beta * x)``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'beta'))
        x_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            beta_type.dtype == x_type.dtype,
            beta_type.ndim <= x_type.ndim - 1,
            beta_type.shape == x_type.shape[
                1:1 + type_check.eval(beta_type.ndim)],
        )

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1))
        x, beta = inputs
        y = beta.reshape(_get_extended_shape(beta, x)) * x
        _numerics.sigmoid(y, out=y)
        y *= x
        return y,

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1))
        x, beta = inputs
        beta = beta.reshape(_get_extended_shape(beta, x))
        return cuda.elementwise(
            'T x, T beta', 'T y',
            '''
            T bx = beta * x;
            y = x * sigmoid(bx);
            ''',
            'swish_fwd', preamble=_numerics.SIGMOID_CUDA_PREAMBLE)(x, beta),

    def backward(self, indexes, grad_outputs):
        x, beta = self.get_retained_inputs()
        return SwishGrad(
            _get_extended_shape(beta, x),
            _get_reduction_axes(beta, x)).apply((x, beta, grad_outputs[0]))


class SwishGrad(function_node.FunctionNode):

    """Gradients of :class:`Swish`: ``(gx, gbeta)`` from
    ``(x, beta, gy)``."""

    def __init__(self, extended_shape, reduction_axes):
        self.extended_shape = extended_shape
        self.reduction_axes = reduction_axes

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, beta, gy = inputs
        beta = beta.reshape(self.extended_shape)
        sig = beta * x
        _numerics.sigmoid(sig, out=sig)
        y = x * sig
        by = beta * y
        # gx = gy * (by + sig * (1 - by))
        gx = x.dtype.type(1) - by
        gx *= sig
        gx += by
        gx *= gy
        # gbeta = sum(gy * y * (x - y))
        gb = gy * y
        gb *= x - y
        gb = utils.force_array(gb.sum(axis=self.reduction_axes))
        return gx, gb

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, beta, gy = inputs
        beta = beta.reshape(self.extended_shape)
        gx, gb = cuda.elementwise(
            'T x, T beta, T gy', 'T gx, T gb',
            '''
            T bx = beta * x;
            T sig = sigmoid(bx);
            T y = x * sig;
            T by = beta * y;
            gx = gy * (by + sig * (1 - by));
            gb = gy * y * (x - y);
            ''',
            'swish_bwd', preamble=_numerics.SIGMOID_CUDA_PREAMBLE)(
                x, beta, gy)
        return gx, gb.sum(axis=self.reduction_axes)

    def backward(self, indexes, grad_outputs):
        x, beta, gy = self.get_retained_inputs()
        ggx, ggb = grad_outputs
        xp = backend.get_array_module(x)
        if ggx is None:
            ggx = variable.Variable(xp.zeros_like(gy.array))
        if ggb is None:
            ggb = variable.Variable(xp.zeros_like(beta.array))
        shape = gy.shape
        beta = broadcast.broadcast_to(
            reshape.reshape(beta, self.extended_shape), shape)
        ggb = broadcast.broadcast_to(
            reshape.reshape(ggb, self.extended_shape), shape)
        sig = sigmoid.sigmoid(beta * x)
        y = x * sig
        by = beta * y
        sig_one_minus_by = sig * (1 - by)
        y_x_minus_y = y * (x - y)
        x_minus_2y = x - 2 * y
        common = gy * y * (2 + beta * x_minus_2y) * (1 - sig)
        ret = []
        if 0 in indexes:
            g_x = (ggx * gy * beta * (1 - sig) * (by + 2 * sig_one_minus_by)
                   + ggb * common)
            ret.append(g_x)
        if 1 in indexes:
            g_beta = ggx * common + ggb * gy * y_x_minus_y * x_minus_2y
            g_beta = sum_module.sum(g_beta, axis=self.reduction_axes)
            ret.append(g_beta)
        if 2 in indexes:
            g_gy = ggx * (by + sig_one_minus_by) + ggb * y_x_minus_y
            ret.append(g_gy)
        return ret


def swish(x, beta):
    """Swish activation, :math:`f(x, \\beta) = x \\cdot \\sigma(\\beta x)`.

    :math:`\\sigma` is the logistic sigmoid. :math:`f(x, 0) = x / 2`, and
    :math:`f(x, \\beta)` tends to :math:`\\max(0, x)` as :math:`\\beta`
    grows.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            shape :math:`(s_B, s_1, ..., s_N)`, with the minibatch along
            its first axis.
        beta (:class:`~chainer.Variable` or :ref:`ndarray`): The parameter
            :math:`\\beta`, of shape :math:`(s_1, ..., s_M)` for some
            :math:`0 \\le M \\le N` and of the dtype of ``x``; it is
            reshaped to :math:`(1, s_1, ..., s_M, 1, ..., 1)` and broadcast
            against ``x``.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. seealso:: :class:`chainer.links.Swish`, which holds ``beta`` as a
        trainable parameter (see `Ramachandran et al.
        <https://arxiv.org/abs/1710.05941>`_).

    .. admonition:: Example

        >>> x = np.array([[-1., 0., 2.]], np.float32)
        >>> beta = np.ones(3, np.float32)
        >>> F.swish(x, beta).array
        array([[-0.2689414,  0.       ,  1.7615942]], dtype=float32)

    """
    y, = Swish().apply((x, beta))
    return y
