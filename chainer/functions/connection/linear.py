import numpy

import chainer
from chainer import _kernels
from chainer import function_node
from chainer.functions.connection import _check
from chainer import utils
from chainer.utils import type_check




def _product(a, b, trans_a, trans_b, dtype, bias=None):
    # op(a) op(b) (+ bias) in dtype, op a transpose or not: the one matrix
    # product of the linear layer's forward and gradients.
    if dtype == a.dtype:
        y = _kernels.call((a, b, bias), _kernels.FLOAT32, lambda k: k.gemm(
            numpy.ascontiguousarray(a), numpy.ascontiguousarray(b),
            trans_a, trans_b,
            None if bias is None else numpy.ascontiguousarray(bias)))
        if y is not None:
            return y
    y = (a.T if trans_a else a).dot(b.T if trans_b else b)
    y = y.astype(dtype, copy=False)
    if bias is not None:
        y += bias
    return y


class LinearFunction(function_node.FunctionNode):

    """Affine map of a batch of vectors, ``y = x W^T + b``."""

    def check_type_forward(self, in_types):
        x_type, w_type = _check.x_and_w(in_types, 2, 2)
        type_check.expect(x_type.shape[1] == w_type.shape[1])
        _check.bias(in_types, w_type.shape[0], x_type)

    def forward(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        y = _product(x, W, False, True, x.dtype, b)
        self.retain_inputs((0, 1))
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            gx, = LinearGradData().apply((W, gy))
            ret.append(chainer.functions.cast(gx, x.dtype))
        if 1 in indexes:
            gW, = LinearGradWeight(W.dtype).apply((x, gy))
            ret.append(chainer.functions.cast(gW, W.dtype))
        if 2 in indexes:
            ret.append(chainer.functions.sum(gy, axis=0))
        return ret

    def _add_grad_into(self, index, grad_outputs, total):
        # The weight gradients of a weight shared by many steps are summed
        # by the product itself, of the rows of several steps at once.
        gy = grad_outputs[0]
        if index != 1 or gy is None:
            return False
        x = self.get_retained_inputs()[0].array
        gy = gy.array
        if total is None:
            return _product(gy, x, True, False, self.inputs[1].dtype)
        if _kernels.get((gy, x, total)) is None \
                or not total.flags.c_contiguous:
            return False
        addend = _WeightGradients(gy, x, total.nbytes)
        if addend.nbytes > addend.limit // 2:
            addend.add_to(total)
            return True
        return addend


class _WeightGradients(function_node.Addend):
    # The weight gradients gy^T x of some steps, added to their sum as one
    # product of the stacked rows: its long inner dimension runs faster
    # than many short ones, and the sum is read and written once, not once
    # a step. The rows kept are at most the size of the sum.

    def __init__(self, gy, x, limit):
        self.gys = [gy]
        self.xs = [x]
        self.nbytes = gy.nbytes + x.nbytes
        self.limit = limit

    def absorb(self, other):
        if self.nbytes + other.nbytes > self.limit:
            return False
        self.gys += other.gys
        self.xs += other.xs
        self.nbytes += other.nbytes
        return True

    def add_to(self, total):
        gy = _stacked(self.gys)
        x = _stacked(self.xs)
        if _kernels.call((gy, x, total), _kernels.FLOAT32, lambda k: (
                k.gemm(gy, x, True, False, add_to=total))) is None:
            total += gy.T.dot(x)


def _stacked(rows):
    if len(rows) == 1:
        return numpy.ascontiguousarray(rows[0])
    return numpy.concatenate(rows)


class LinearGradData(function_node.FunctionNode):

    """Gradient of :class:`LinearFunction` with respect to ``x``."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        W, gy = inputs
        return _product(gy, W, False, False, gy.dtype),

    def backward(self, indexes, grad_outputs):
        W, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            gW, = LinearGradWeight(W.dtype).apply((ggx, gy))
            ret.append(chainer.functions.cast(gW, W.dtype))
        if 1 in indexes:
            ret.append(chainer.functions.cast(linear(ggx, W), gy.dtype))
        return ret


class LinearGradWeight(function_node.FunctionNode):

    """Gradient of :class:`LinearFunction` with respect to ``W``."""

    def __init__(self, w_dtype):
        self._w_dtype = w_dtype

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return _product(gy, x, True, False, self._w_dtype),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            gx, = LinearGradData().apply((ggW, gy))
            ret.append(chainer.functions.cast(gx, x.dtype))
        if 1 in indexes:
            ret.append(chainer.functions.cast(linear(x, ggW), gy.dtype))
        return ret


def linear(x, W, b=None, n_batch_axes=1):
    """Affine map of the input: a matrix product plus an optional bias.

    It maps each input vector ``x_i`` to ``W x_i + b``. The leading
    ``n_batch_axes`` axes of ``x`` index the vectors; the remaining axes
    are flattened into one vector of length ``N``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
            ``(s_1, ..., s_n)`` with ``s_{n_batch_axes + 1} * ... * s_n``
            equal to ``N``.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): The weight matrix,
            ``(M, N)``.
        b (None or :class:`~chainer.Variable` or :ref:`ndarray`): Bias of
            shape ``(M,)`` (optional).
        n_batch_axes (int): Number of leading batch axes of ``x``; it must
            be positive.

    Returns:
        ~chainer.Variable: Output of shape
        ``(s_1, ..., s_{n_batch_axes}, M)``.

    Raises:
        ValueError: If ``n_batch_axes`` is not positive.

    .. seealso::

        :class:`~chainer.links.Linear`, which holds ``W`` and ``b``.

    .. admonition:: Example

        >>> x = np.random.uniform(0, 1, (3, 4)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (5, 4)).astype(np.float32)
        >>> b = np.random.uniform(0, 1, (5,)).astype(np.float32)
        >>> F.linear(x, W, b).shape
        (3, 5)
        >>> x = np.random.uniform(0, 1, (2, 3, 4)).astype(np.float32)
        >>> F.linear(x, W, b, n_batch_axes=2).shape
        (2, 3, 5)

    """
    if n_batch_axes <= 0:
        raise ValueError('n_batch_axes should be greater than 0.')
    if n_batch_axes > 1:
        batch_shape = x.shape[:n_batch_axes]
        x = x.reshape(utils.size_of_shape(batch_shape), -1)
    elif x.ndim > 2:
        x = x.reshape(x.shape[0], -1)
    args = (x, W) if b is None else (x, W, b)
    y, = LinearFunction().apply(args)
    if n_batch_axes > 1:
        y = y.reshape(batch_shape + (-1,))
    return y
