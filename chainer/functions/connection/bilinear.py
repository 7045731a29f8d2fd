import numpy

import chainer
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


def _as_mat(x):
    # A batch of vectors: (i, ...) flattened to (i, j).
    if x.ndim == 2:
        return x
    return x.reshape(len(x), utils.size_of_shape(x.shape[1:]))


def _outer(a, b):
    # (i, j), (i, k) -> (i, j * k): the outer product of each pair of rows.
    return (a[:, :, None] * b[:, None, :]).reshape(
        len(a), a.shape[1] * b.shape[1])


# Contractions of the bilinear form on variables, for the double backward;
# e1 is (i, j), e2 is (i, k), W is (j, k, l), y is (i, l).

def _e1_e2_W_to_y(e1, e2, W):
    F = chainer.functions
    ab = F.matmul(e1[:, :, None], e2[:, None, :])
    return F.matmul(ab.reshape(len(e1), e1.shape[1] * e2.shape[1]),
                    W.reshape(W.shape[0] * W.shape[1], W.shape[2]))


def _e1_e2_y_to_W(e1, e2, y):
    F = chainer.functions
    ab = F.matmul(e1[:, :, None], e2[:, None, :])
    ab = ab.reshape(len(e1), e1.shape[1] * e2.shape[1])
    return F.matmul(ab, y, transa=True).reshape(
        e1.shape[1], e2.shape[1], y.shape[1])


def _e1_y_W_to_e2(e1, y, W):
    return _e1_e2_W_to_y(e1, y, chainer.functions.transpose(W, (0, 2, 1)))


def _e2_y_W_to_e1(e2, y, W):
    return _e1_e2_W_to_y(e2, y, chainer.functions.transpose(W, (1, 2, 0)))


class BilinearFunction(function_node.FunctionNode):

    """Bilinear form ``y_il = sum_jk e1_ij e2_ik W_jkl`` (+ linear terms)."""

    def check_type_forward(self, in_types):
        n_in = type_check.eval(in_types.size())
        if n_in != 3 and n_in != 6:
            raise type_check.InvalidType(
                '{0} or {1}'.format(
                    in_types.size() == 3, in_types.size() == 6),
                '{0} == {1}'.format(in_types.size(), n_in))
        e1_type, e2_type, W_type = in_types[:3]
        type_check._argname((e1_type, e2_type, W_type), ('e1', 'e2', 'W'))
        prod = type_check.make_variable(numpy.prod, 'prod')
        type_check.expect(
            e1_type.dtype == numpy.float32,
            e1_type.ndim >= 2,
            e2_type.dtype == numpy.float32,
            e2_type.ndim >= 2,
            W_type.dtype == numpy.float32,
            W_type.ndim == 3,
        )
        type_check.expect(
            e1_type.shape[0] == e2_type.shape[0],
            prod(e1_type.shape[1:]) == W_type.shape[0],
            prod(e2_type.shape[1:]) == W_type.shape[1],
        )
        if n_in == 6:
            out_size = W_type.shape[2]
            V1_type, V2_type, b_type = in_types[3:]
            type_check._argname((V1_type, V2_type, b_type),
                                ('V1', 'V2', 'b'))
            type_check.expect(
                V1_type.dtype == numpy.float32,
                V1_type.ndim == 2,
                V2_type.dtype == numpy.float32,
                V2_type.ndim == 2,
                b_type.dtype == numpy.float32,
                b_type.ndim == 1,
            )
            type_check.expect(
                V1_type.shape[0] == W_type.shape[0],
                V1_type.shape[1] == out_size,
                V2_type.shape[0] == W_type.shape[1],
                V2_type.shape[1] == out_size,
                b_type.shape[0] == out_size,
            )

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        e1 = _as_mat(inputs[0])
        e2 = _as_mat(inputs[1])
        W = inputs[2]
        y = _outer(e1, e2).dot(W.reshape(-1, W.shape[2]))
        if len(inputs) == 6:
            V1, V2, b = inputs[3:]
            y += e1.dot(V1)
            y += e2.dot(V2)
            y += b
        return y,

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        gy, = grad_outputs
        # The gradients need e1, e2, W (and V1, V2), not b.
        return BilinearFunctionGrad().apply(inputs[:5] + (gy,))


class BilinearFunctionGrad(function_node.FunctionNode):

    """Gradients of :class:`BilinearFunction`.

    Inputs are ``(e1, e2, W, gy)`` or ``(e1, e2, W, V1, V2, gy)``; outputs
    the gradients of ``e1, e2, W`` (and ``V1, V2, b``).
    """

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        e1 = _as_mat(inputs[0])
        e2 = _as_mat(inputs[1])
        W, gy = inputs[2], inputs[-1]
        n, j, k = len(e1), e1.shape[1], e2.shape[1]
        gW = _outer(e1, e2).T.dot(gy).reshape(W.shape)
        gy_W = gy.dot(W.reshape(-1, W.shape[2]).T).reshape(n, j, k)
        ge1 = (gy_W @ e2[:, :, None])[:, :, 0]
        ge2 = (e1[:, None, :] @ gy_W)[:, 0, :]
        if len(inputs) == 6:
            V1, V2 = inputs[3:5]
            ge1 += gy.dot(V1.T)
            ge2 += gy.dot(V2.T)
            extra = e1.T.dot(gy), e2.T.dot(gy), gy.sum(0)
        else:
            extra = ()
        return (ge1.reshape(inputs[0].shape), ge2.reshape(inputs[1].shape),
                gW) + extra

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        inputs = self.get_retained_inputs()
        x1, x2 = inputs[:2]
        e1 = _as_mat(x1)
        e2 = _as_mat(x2)
        W, gy = inputs[2], inputs[-1]
        gge1, gge2, ggW = grad_outputs[:3]
        if gge1 is not None:
            gge1 = _as_mat(gge1)
        if gge2 is not None:
            gge2 = _as_mat(gge2)
        full = len(inputs) == 6
        ggV1 = ggV2 = ggb = None
        if full:
            V1, V2 = inputs[3:5]
            ggV1, ggV2, ggb = grad_outputs[3:]

        def total(terms):
            terms = [t for t in terms if t is not None]
            if not terms:
                return None
            return F.add(*terms) if len(terms) > 1 else terms[0]

        def term(func, *args):
            if any(a is None for a in args):
                return None
            return func(*args)

        ge1 = total([
            term(_e2_y_W_to_e1, e2, gy, ggW),
            term(_e2_y_W_to_e1, gge2, gy, W),
            term(lambda g: F.matmul(gy, g, transb=True), ggV1)])
        ge2 = total([
            term(_e1_y_W_to_e2, e1, gy, ggW),
            term(_e1_y_W_to_e2, gge1, gy, W),
            term(lambda g: F.matmul(gy, g, transb=True), ggV2)])
        gW = total([
            term(_e1_e2_y_to_W, gge1, e2, gy),
            term(_e1_e2_y_to_W, e1, gge2, gy)])
        ggy = total([
            term(_e1_e2_W_to_y, e1, e2, ggW),
            term(_e1_e2_W_to_y, gge1, e2, W),
            term(_e1_e2_W_to_y, e1, gge2, W),
            term(lambda g: F.matmul(g, V1), gge1) if full else None,
            term(lambda g: F.matmul(g, V2), gge2) if full else None,
            term(lambda g: F.matmul(e1, g), ggV1),
            term(lambda g: F.matmul(e2, g), ggV2),
            term(lambda g: F.broadcast_to(g, (len(gy), g.shape[0])), ggb)])
        if ge1 is not None:
            ge1 = ge1.reshape(x1.shape)
        if ge2 is not None:
            ge2 = ge2.reshape(x2.shape)
        if not full:
            return ge1, ge2, gW, ggy
        gV1 = term(lambda g: F.matmul(g, gy, transa=True), gge1)
        gV2 = term(lambda g: F.matmul(g, gy, transa=True), gge2)
        return ge1, ge2, gW, gV1, gV2, ggy


def bilinear(e1, e2, W, V1=None, V2=None, b=None):
    """Bilinear function of two batches of vectors.

    For each pair of rows ``e1_i`` (length ``J``) and ``e2_i`` (length
    ``K``) it computes

    .. math::

        y_{il} = \\sum_{jk} e1_{ij} e2_{ik} W_{jkl}
        + \\sum_j e1_{ij} V1_{jl} + \\sum_k e2_{ik} V2_{kl} + b_l,

    the linear terms only when ``V1``, ``V2`` and ``b`` are all given.
    Arrays of more than two axes are flattened after the first one. Only
    float32 arrays are accepted.

    Args:
        e1 (:class:`~chainer.Variable` or :ref:`ndarray`): Left input of
            shape ``(i, J)`` (or ``(i, ...)`` of ``J`` elements per row).
        e2 (:class:`~chainer.Variable` or :ref:`ndarray`): Right input of
            shape ``(i, K)``.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): Bilinear weight
            of shape ``(J, K, L)``.
        V1 (:class:`~chainer.Variable` or :ref:`ndarray`): Weight of the
            ``e1`` term, of shape ``(J, L)``.
        V2 (:class:`~chainer.Variable` or :ref:`ndarray`): Weight of the
            ``e2`` term, of shape ``(K, L)``.
        b (:class:`~chainer.Variable` or :ref:`ndarray`): Bias of shape
            ``(L,)``.

    Returns:
        ~chainer.Variable: Output of shape ``(i, L)``.

    Raises:
        ValueError: If only some of ``V1``, ``V2`` and ``b`` are given.

    .. seealso:: :class:`~chainer.links.Bilinear`, which holds the weights.

    .. admonition:: Example

        >>> e1 = np.random.uniform(0, 1, (4, 3)).astype(np.float32)
        >>> e2 = np.random.uniform(0, 1, (4, 2)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (3, 2, 5)).astype(np.float32)
        >>> F.bilinear(e1, e2, W).shape
        (4, 5)

    """
    flags = [V1 is None, V2 is None, b is None]
    if any(flags):
        if not all(flags):
            raise ValueError('All coefficients and bias for bilinear() must '
                             'be None, if at least one of them is None.')
        return BilinearFunction().apply((e1, e2, W))[0]
    return BilinearFunction().apply((e1, e2, W, V1, V2, b))[0]
