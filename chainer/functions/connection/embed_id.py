import numpy

import chainer
from chainer import _kernels
from chainer import backend
from chainer.functions import _numerics
from chainer.functions.array import _index
from chainer import function_node
from chainer.utils import type_check


class EmbedIDFunction(function_node.FunctionNode):

    """Row lookup ``y[...] = W[x[...]]``, differentiable in ``W`` only."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'W'))
        x_type, w_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'i',
            x_type.ndim >= 1,
        )
        type_check.expect(
            w_type.dtype.kind == 'f',
            w_type.ndim == 2,
        )

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, W = inputs
        self._w_shape = W.shape
        xp = backend.get_array_module(*inputs)
        bad = _index.first_out_of_range(x, len(W), self.ignore_label)
        if bad is not None:
            if chainer.config.debug:
                raise ValueError('Each not ignored `x` value need to satisfy '
                                 '`0 <= x < len(W)`')
            raise IndexError(
                'ID {} is out of bounds for W with {} rows'.format(
                    bad, len(W)))
        if self.ignore_label is None:
            return W[x],
        ignored = x == self.ignore_label
        y = W[xp.where(ignored, 0, x)]
        y[ignored] = 0
        return y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gW, = EmbedIDGrad(self._w_shape, self.ignore_label).apply(
            (x, grad_outputs[0]))
        return None, gW

    def _add_grad_into(self, index, grad_outputs, total):
        # The rows of each step go straight into the running sum.
        gy = grad_outputs[0]
        if index != 1 or gy is None:
            return False
        gy = gy.array
        x = self.get_retained_inputs()[0].array
        if total is None:
            gW = backend.get_array_module(gy).zeros(self._w_shape, gy.dtype)
            _scatter_rows(gW, x, gy, self.ignore_label)
            return gW
        if type(gy) is not type(total) or gy.dtype != total.dtype:
            return False
        _scatter_rows(total, x, gy, self.ignore_label)
        return True


class EmbedIDGrad(function_node.FunctionNode):

    """Gradient of :class:`EmbedIDFunction`: sums the rows of ``gy`` into
    the rows of ``W`` that ``x`` selected."""

    def __init__(self, w_shape, ignore_label=None):
        self.w_shape = w_shape
        self.ignore_label = ignore_label

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, gy = inputs
        xp = backend.get_array_module(*inputs)
        gW = xp.zeros(self.w_shape, gy.dtype)
        _scatter_rows(gW, x, gy, self.ignore_label)
        return gW,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return None, embed_id(x, grad_outputs[0], self.ignore_label)


def _scatter_rows(gW, x, gy, ignore_label):
    # Adds the rows of gy to the rows of gW that the IDs x selected.
    ids = x.ravel()
    rows = gy.reshape(ids.size, gW.shape[1])

    def scatter(kernels):
        kernels.embed_id_backward(
            numpy.asarray(ids, order='C'), numpy.asarray(rows, order='C'),
            gW, ignore_label)
        return gW

    if gW.flags.c_contiguous and _kernels.call(
            (rows, gW), _kernels.FLOATS, scatter) is not None:
        return
    if ignore_label is not None:
        kept = ids != ignore_label
        ids = ids[kept]
        rows = rows[kept]
    _numerics.add_at(gW, ids, rows)


def embed_id(x, W, ignore_label=None):
    """Embedding lookup: the rows of ``W`` selected by integer IDs.

    It is a linear function of one-hot vectors computed without them:
    ``y[..., :] = W[x[...], :]``. It is differentiable with respect to
    ``W`` only; the gradient of a row is the sum of the output gradients
    of the IDs that selected it.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Signed integer
            IDs, of any shape with at least one axis.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): Embeddings of
            shape ``(V, d)``; ``V`` is the number of IDs.
        ignore_label (int or None): If given, the positions where ``x``
            equals it get zero vectors (and send no gradient).

    Returns:
        ~chainer.Variable: Output of shape ``x.shape + (d,)``.

    Raises:
        IndexError: If some ID that is not ignored is out of ``[0, V)``
            (``ValueError`` in debug mode). A negative ID is not read from
            the end.

    .. seealso:: :class:`~chainer.links.EmbedID`, which holds ``W``.

    .. admonition:: Example

        >>> x = np.array([2, 1], np.int32)
        >>> W = np.array([[0, 0, 0], [1, 1, 1], [2, 2, 2]], np.float32)
        >>> F.embed_id(x, W).array
        array([[2., 2., 2.],
               [1., 1., 1.]], dtype=float32)
        >>> F.embed_id(x, W, ignore_label=1).array
        array([[2., 2., 2.],
               [0., 0., 0.]], dtype=float32)

    """
    return EmbedIDFunction(ignore_label=ignore_label).apply((x, W))[0]
