from chainer import backend
from chainer import function_node
from chainer.functions.array import reshape
from chainer.functions.loss import contrastive
from chainer import utils
from chainer.utils import type_check


class Triplet(function_node.FunctionNode):

    """Triplet loss of anchor, positive and negative examples."""

    # Takes the arguments of the contrastive loss: a positive ``margin`` and
    # ``reduce``, ``'mean'`` or ``'no'``.
    __init__ = contrastive.Contrastive.__init__

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('anchor', 'positive', 'negative'))
        a_type, p_type, n_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            a_type.dtype == p_type.dtype,
            a_type.dtype == n_type.dtype,
            a_type.ndim == 2,
            a_type.shape == p_type.shape,
            a_type.shape == n_type.shape,
        )
        type_check.expect(a_type.shape[0] > 0)

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        xp = backend.get_array_module(*inputs)
        anchor, positive, negative = inputs
        dtype = anchor.dtype
        d_pos = anchor - positive
        d_neg = anchor - negative
        d_pos *= d_pos
        d_neg *= d_neg
        d_pos -= d_neg
        dist = d_pos.sum(axis=1)
        dist += dtype.type(self.margin)
        hinge = xp.maximum(dist, 0, out=dist)
        # Only the rows with a positive hinge propagate a gradient.
        self.active = hinge > 0
        if self.reduce == 'mean':
            loss = hinge.sum() / dtype.type(len(hinge))
            return utils.force_array(loss, dtype),
        return hinge,

    def backward(self, indexes, grad_outputs):
        anchor, positive, negative = self.get_retained_inputs()
        gy, = grad_outputs
        n = len(self.active)
        coeff = self.active.astype(gy.dtype).reshape((n, 1))
        if self.reduce == 'mean':
            coeff *= 2. / n
            g = gy * coeff
        else:
            g = reshape.reshape(gy, coeff.shape) * (2 * coeff)
        ret = []
        if 0 in indexes:
            ret.append(g * (negative - positive))
        if 1 in indexes:
            ret.append(g * (positive - anchor))
        if 2 in indexes:
            ret.append(g * (anchor - negative))
        return ret


def triplet(anchor, positive, negative, margin=0.2, reduce='mean'):
    """Triplet loss.

    For an anchor :math:`a`, a positive example :math:`p` and a negative
    example :math:`n`, each of shape :math:`(N, K)`, the loss is

    .. math::

        L(a, p, n) = \\frac{1}{N} \\sum_{i=1}^N \\max \\{d(a_i, p_i)
            - d(a_i, n_i) + {\\rm margin}, 0\\}

    where the distance is the squared L2 norm of the difference,
    :math:`d(x_i, y_i) = \\| {\\bf x}_i - {\\bf y}_i \\|_2^2`. It
    trains the anchor to lie nearer to the positive than to the negative
    example; see `Learning Fine-grained Image Similarity with Deep Ranking
    <https://arxiv.org/abs/1404.4661>`_.

    Args:
        anchor (:class:`~chainer.Variable` or :ref:`ndarray`): The anchor
            examples, of shape :math:`(N, K)` and a float dtype.
        positive (:class:`~chainer.Variable` or :ref:`ndarray`): The
            positive examples, of the shape and dtype of ``anchor``.
        negative (:class:`~chainer.Variable` or :ref:`ndarray`): The
            negative examples, of the shape and dtype of ``anchor``.
        margin (float): The margin; it must be positive.
        reduce (str): ``'mean'`` (default) averages the losses over the
            batch; ``'no'`` keeps one loss per example. Any other value
            raises :class:`ValueError`.

    Returns:
        ~chainer.Variable: A scalar loss, or the :math:`(N,)` losses when
        ``reduce`` is ``'no'``.

    .. admonition:: Example

        >>> a = np.array([[0., 1.], [1., 1.]], np.float32)
        >>> p = np.array([[0., 1.5], [1., 1.]], np.float32)
        >>> n = np.array([[0., 0.], [2., 1.]], np.float32)
        >>> F.triplet(a, p, n, reduce='no').array
        array([0., 0.], dtype=float32)
        >>> F.triplet(a, p, n, margin=1.5).array
        array(0.625, dtype=float32)

    """
    return Triplet(margin, reduce).apply((anchor, positive, negative))[0]
