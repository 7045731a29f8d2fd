import numpy

from chainer import backend
from chainer import function_node
from chainer.functions.array import reshape
from chainer.functions.loss import _labels
from chainer.functions.loss import _reduce_option
from chainer.functions.math import sum as sum_module
from chainer import utils
from chainer.utils import type_check


class Contrastive(function_node.FunctionNode):

    """Contrastive loss of pairs of examples."""

    def __init__(self, margin, reduce='mean'):
        if margin <= 0:
            raise ValueError('margin should be positive value.')
        self.margin = margin
        _reduce_option.check(reduce, ('mean', 'no'))
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x0', 'x1', 'y'))
        x0_type, x1_type, y_type = in_types
        type_check.expect(
            x0_type.dtype.kind == 'f',
            x0_type.dtype == x1_type.dtype,
            y_type.dtype.kind == 'i',
            x0_type.ndim == 2,
            x1_type.ndim == 2,
            y_type.ndim == 1,
        )
        type_check.expect(
            x0_type.shape == x1_type.shape,
            x1_type.shape[0] == y_type.shape[0],
            x1_type.shape[0] > 0,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        xp = backend.get_array_module(*inputs)
        x0, x1, y = inputs
        # y is a factor of the loss: other values would give a number.
        _labels.check_labels(y, 2, 'y')
        dtype = x0.dtype
        diff = x0 - x1
        diff *= diff
        dist_sq = diff.sum(axis=1)
        # max(margin - d, 0) ** 2 for the dissimilar pairs
        short = xp.sqrt(dist_sq)
        short -= dtype.type(self.margin)
        xp.minimum(short, 0, out=short)
        short *= short
        similar = y.astype(dtype)
        loss = short - dist_sq
        loss *= similar
        loss -= short
        loss *= dtype.type(-0.5)
        if self.reduce == 'mean':
            return utils.force_array(
                loss.sum() / dtype.type(len(loss)), dtype),
        return loss,

    def backward(self, indexes, grad_outputs):
        x0, x1, y = self.get_retained_inputs()
        gy, = grad_outputs
        dtype = x0.dtype
        n = len(y)
        similar = y.array.astype(dtype)
        diff = x0 - x1
        dist = sum_module.sum(diff * diff, axis=1) ** 0.5
        # max(margin - dist, 0) and max(dist, eps) with masks, so that the
        # gradient is that of the maximum. 1e-7 is below the resolution of
        # half precision.
        eps = 5e-3 if dtype == numpy.float16 else 1e-7
        short = self.margin - dist
        short = short * (short.array > 0)
        far = dist.array >= eps
        dist = dist * far + eps * (1 - far.astype(dtype))
        coeff = (short / dist) * (similar - 1) + similar
        if self.reduce == 'mean':
            coeff = coeff * (gy * (1. / n))
        else:
            coeff = coeff * gy
        gx0 = diff * reshape.reshape(coeff, (n, 1))
        return tuple([gx0 if i == 0 else -gx0 for i in indexes])


def contrastive(x0, x1, y, margin=1, reduce='mean'):
    """Contrastive loss.

    It takes pairs of examples and labels: :math:`1` when the two examples
    of a pair are similar, :math:`0` when they are dissimilar. For the
    :math:`n`-th pair, with :math:`d_n = \\| {\\bf x_0}_n - {\\bf x_1}_n
    \\|_2`, the loss is

    .. math::

        L_n = \\frac{1}{2} \\left( y_n d_n^2
        + (1 - y_n) \\max ({\\rm margin} - d_n, 0)^2 \\right).

    It trains siamese networks; see `Learning a Similarity Metric
    Discriminatively, with Application to Face Verification
    <http://yann.lecun.com/exdb/publis/pdf/chopra-05.pdf>`_.

    Args:
        x0 (:class:`~chainer.Variable` or :ref:`ndarray`): The first
            examples of the pairs, of shape :math:`(N, K)` and a float dtype.
        x1 (:class:`~chainer.Variable` or :ref:`ndarray`): The second
            examples, of the shape and dtype of ``x0``.
        y (:class:`~chainer.Variable` or :ref:`ndarray`): The labels, 0 or
            1, an integer array of shape :math:`(N,)`; any other value raises
            :class:`ValueError`.
        margin (float): The margin beyond which dissimilar pairs cost
            nothing; it must be positive.
        reduce (str): ``'mean'`` (default) averages the losses over the
            pairs; ``'no'`` keeps one loss per pair. Any other value raises
            :class:`ValueError`.

    Returns:
        ~chainer.Variable: A scalar loss, or the :math:`(N,)` losses when
        ``reduce`` is ``'no'``.

    .. admonition:: Example

        >>> x0 = np.array([[0., 1.], [1., 1.]], np.float32)
        >>> x1 = np.array([[0., 2.], [1., 1.5]], np.float32)
        >>> y = np.array([1, 0], np.int32)
        >>> F.contrastive(x0, x1, y, reduce='no').array
        array([0.5  , 0.125], dtype=float32)
        >>> F.contrastive(x0, x1, y).array
        array(0.3125, dtype=float32)

    """
    return Contrastive(margin, reduce).apply((x0, x1, y))[0]
