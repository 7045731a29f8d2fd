import numpy

from chainer import backend
from chainer import function_node
from chainer.functions.array import broadcast
from chainer.functions.array import cast
from chainer.functions.array import reshape
from chainer.functions.math import matmul
from chainer.functions.math import sum as sum_module
from chainer.utils import type_check
from chainer import variable


def _matrix_shape(shape):
    # The input as a matrix: the batch axis, then all others flattened.
    return shape[0], int(numpy.prod(shape[1:], dtype=numpy.int64))


class SimplifiedDropconnect(function_node.FunctionNode):

    """Linear function ``x W^T + b`` whose weights are dropped at random:
    each element of ``W`` is zeroed with probability ``ratio`` (per sample
    with a batchwise mask) and the others are scaled by
    ``1 / (1 - ratio)``."""

    def __init__(self, ratio, mask=None, use_batchwise_mask=True):
        self.ratio = ratio
        self.mask = mask
        self.use_batchwise_mask = use_batchwise_mask

    def check_type_forward(self, in_types):
        n_in = in_types.size()
        type_check.expect(2 <= n_in, n_in <= 3)
        x_type, w_type = in_types[:2]
        type_check._argname((x_type, w_type), ('x', 'W'))
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            w_type.ndim == 2,
            type_check.prod(x_type.shape[1:]) == w_type.shape[1],
        )
        if type_check.eval(n_in) == 3:
            b_type = in_types[2]
            type_check._argname((b_type,), ('b',))
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[0],
            )
        if self.mask is not None:
            if self.use_batchwise_mask:
                type_check.expect(
                    self.mask.shape[0] == x_type.shape[0],
                    self.mask.shape[1:] == w_type.shape,
                )
            else:
                type_check.expect(self.mask.shape == w_type.shape)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        xp = backend.get_array_module(*inputs)
        scale = W.dtype.type(1. / (1 - self.ratio))
        if self.mask is None:
            shape = W.shape
            if self.use_batchwise_mask:
                shape = (x.shape[0],) + shape
            if xp is numpy:
                rand = numpy.random.rand(*shape)
            else:
                rand = xp.random.rand(*shape, dtype=numpy.float32)
            self.mask = rand >= self.ratio
        elif isinstance(self.mask, variable.Variable):
            self.mask = self.mask.array
        x = x.reshape(_matrix_shape(x.shape))
        W = W * scale * self.mask
        if W.ndim == 3:
            # One masked matrix per sample: y[i] = W[i] x[i].
            y = xp.matmul(W, x[:, :, None])[:, :, 0]
        else:
            y = xp.matmul(x, W.T)
        y = y.astype(x.dtype, copy=False)
        if len(inputs) == 3:
            y += inputs[2]
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        mask = self.mask
        scale = W.dtype.type(1. / (1 - self.ratio))
        x_shape = x.shape
        n, n_in = _matrix_shape(x_shape)
        x = reshape.reshape(x, (n, n_in))
        n_out = W.shape[0]
        batchwise = mask.ndim == 3
        ret = []
        if 0 in indexes:
            if batchwise:
                W_masked = broadcast.broadcast_to(W, mask.shape) * scale * mask
                gx = matmul.matmul(reshape.reshape(gy, (n, 1, n_out)),
                                   W_masked)
            else:
                gx = matmul.matmul(gy, W * scale * mask)
            gx = cast.cast(reshape.reshape(gx, x_shape), x.dtype)
            ret.append(gx)
        if 1 in indexes:
            if batchwise:
                shape = (n, n_out, n_in)
                gy_x = (broadcast.broadcast_to(
                    reshape.reshape(gy, (n, n_out, 1)), shape)
                    * broadcast.broadcast_to(
                        reshape.reshape(x, (n, 1, n_in)), shape))
                gW = sum_module.sum(gy_x * mask, axis=0) * scale
            else:
                gW = matmul.matmul(gy, x, transa=True) * mask * scale
            ret.append(cast.cast(gW, W.dtype))
        if 2 in indexes:
            ret.append(sum_module.sum(gy, axis=0))
        return ret


def simplified_dropconnect(x, W, b=None, ratio=.5, train=True, mask=None,
                           use_batchwise_mask=True):
    """Affine map whose weights are randomly dropped while training.

    It computes :math:`Y = x (M \\odot W)^\\top / (1 - \\text{ratio}) + b`,
    where each element of the mask :math:`M` is zero with probability
    ``ratio`` and one otherwise. With ``train=False`` no weight is dropped,
    and it is a plain linear function.

    Unlike the paper, which samples from a Gaussian approximation before
    the activation, this implementation averages before the activation,
    so it does not reproduce the paper's results.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            shape :math:`(n, ...)`; the axes after the first (minibatch) one
            are flattened into :math:`N` features.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): The weight matrix,
            :math:`(M, N)`.
        b (:class:`~chainer.Variable` or :ref:`ndarray`): Optional bias of
            shape :math:`(M,)`.
        ratio (float): The probability of dropping a weight.
        train (bool): If ``False``, no weight is dropped.
        mask (None or :class:`~chainer.Variable` or :ref:`ndarray`): A mask
            to use instead of a random one, of shape :math:`(n, M, N)` with
            ``use_batchwise_mask`` and :math:`(M, N)` without; mostly for
            debugging.
        use_batchwise_mask (bool): If ``True``, each sample of the
            minibatch gets its own mask.

    Returns:
        ~chainer.Variable: The result, :math:`(n, M)`.

    .. seealso:: :class:`~chainer.links.SimplifiedDropconnect`, and `Wan et
        al., Regularization of Neural Networks using DropConnect
        <https://cs.nyu.edu/~wanli/dropc/>`_.

    .. admonition:: Example

        >>> x = np.ones((2, 3), np.float32)
        >>> W = np.ones((4, 3), np.float32)
        >>> F.simplified_dropconnect(x, W, train=False).array
        array([[3., 3., 3., 3.],
               [3., 3., 3., 3.]], dtype=float32)

    """
    if not train:
        ratio = 0
    inputs = (x, W) if b is None else (x, W, b)
    y, = SimplifiedDropconnect(ratio, mask, use_batchwise_mask).apply(inputs)
    return y
