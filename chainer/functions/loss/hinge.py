from chainer import backend
from chainer import function
from chainer.functions.loss import _labels
from chainer.functions.loss import _reduce_option
from chainer import utils
from chainer.utils import type_check


class Hinge(function.Function):

    """Hinge loss for one-of-many classification."""

    def __init__(self, norm='L1', reduce='mean'):
        if norm not in ('L1', 'L2'):
            raise NotImplementedError('norm should be either \'L1\' or \'L2\'')
        self.norm = norm
        _reduce_option.check(reduce, ('mean', 'no'))
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            x_type.ndim == 2,
            t_type.ndim == 1,
        )
        type_check.expect(x_type.shape[0] == t_type.shape[0])

    def forward(self, inputs):
        self.retain_inputs((1,))
        xp = backend.get_array_module(*inputs)
        x, t = inputs
        _labels.check_labels(t, x.shape[1], 't', axis=1)
        rows = xp.arange(len(x))
        # max(0, 1 - delta * x), delta = 1 for the true class, else -1
        bottom_diff = x.copy()
        bottom_diff[rows, t] *= -1
        bottom_diff += 1
        xp.maximum(bottom_diff, 0, out=bottom_diff)
        self.bottom_diff = bottom_diff
        if self.norm == 'L1':
            loss = bottom_diff
        else:
            loss = bottom_diff * bottom_diff
        if self.reduce == 'mean':
            loss = loss.sum() / x.dtype.type(len(x))
        return utils.force_array(loss, x.dtype),

    def backward(self, inputs, grad_outputs):
        xp = backend.get_array_module(*grad_outputs)
        t = inputs[1]
        gloss, = grad_outputs
        if self.norm == 'L1':
            gx = xp.sign(self.bottom_diff)
        else:
            gx = self.bottom_diff * 2
        gx[xp.arange(len(t)), t] *= -1
        if self.reduce == 'mean':
            gx *= gloss / gloss.dtype.type(len(t))
        else:
            gx *= gloss
        return gx, None


def hinge(x, t, norm='L1', reduce='mean'):
    """Hinge loss for a one-of-many classification task.

    .. math::

        L = \\frac{1}{N} \\sum_{n=1}^N \\sum_{k=1}^K \\left[
        \\max(0, 1 - \\delta\\{t_n = k\\} x_{nk}) \\right]^p

    where :math:`N` is the batch size, :math:`K` the number of classes,
    :math:`\\delta\\{t_n = k\\}` is :math:`1` for the true class and
    :math:`-1` for the others, and :math:`p` is 1 for the L1 norm and 2 for
    the L2 norm. A score costs nothing once it has the sign of its
    :math:`\\delta` and a magnitude of at least 1.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The scores, of
            shape :math:`(N, K)` and a float dtype.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): The labels
            :math:`t_n \\in \\{0, \\dots, K-1\\}`, an integer array of shape
            :math:`(N,)`. A label beyond the classes raises
            :class:`IndexError`, a negative one :class:`ValueError`.
        norm (str): ``'L1'`` or ``'L2'``; any other value raises
            :class:`NotImplementedError`.
        reduce (str): ``'mean'`` (default) gives :math:`L`; ``'no'`` keeps
            the :math:`(N, K)` terms of the sum. Any other value raises
            :class:`ValueError`.

    Returns:
        ~chainer.Variable: A scalar loss, or the element-wise losses of the
        shape of ``x`` when ``reduce`` is ``'no'``.

    .. admonition:: Example

        >>> x = np.array([[-2., 3., 0.5], [5., 2., -0.5]], np.float32)
        >>> t = np.array([1, 0], np.int32)
        >>> F.hinge(x, t).array
        array(2.5, dtype=float32)
        >>> F.hinge(x, t, reduce='no').array
        array([[0. , 0. , 1.5],
               [0. , 3. , 0.5]], dtype=float32)
        >>> F.hinge(x, t, norm='L2').array
        array(5.75, dtype=float32)

    """
    return Hinge(norm, reduce)(x, t)
