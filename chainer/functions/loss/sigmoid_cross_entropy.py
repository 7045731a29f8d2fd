import numpy

from chainer import backend
from chainer.functions import _numerics
from chainer.functions.activation import sigmoid
from chainer.functions.loss import _labels
from chainer.functions.loss import _reduce_option
from chainer.functions.math import sum as sum_module
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


def _reduction_dtype(dtype):
    # Half precision sums (and counts beyond 2048) are done in float32.
    if dtype == numpy.float16:
        return numpy.dtype(numpy.float32)
    return dtype


class SigmoidCrossEntropy(function_node.FunctionNode):

    """Binary cross entropy of logits, with the sigmoid built in."""

    ignore_label = -1

    def __init__(self, normalize=True, reduce='mean'):
        self.normalize = normalize
        _reduce_option.check(reduce, ('mean', 'no'))
        self.reduce = reduce
        self.coeff = None

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            x_type.shape == t_type.shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(*inputs)
        x, t = inputs
        # Other labels would enter the loss as numbers.
        _labels.check_labels(t, 2, 't', self.ignore_label)
        dtype = x.dtype
        self.ignore_mask = t != self.ignore_label
        # -(x * (t - [x >= 0]) - log(1 + exp(-|x|))), stable for any x
        loss = utils.force_array(xp.abs(x))
        loss *= -1
        xp.exp(loss, out=loss)
        xp.log1p(loss, out=loss)
        log_term = t.astype(dtype)
        log_term -= x >= 0
        log_term *= x
        loss -= log_term
        loss *= self.ignore_mask
        if self.reduce == 'no':
            return utils.force_array(loss),
        reduction_dtype = _reduction_dtype(dtype)
        if self.normalize:
            count = self.ignore_mask.sum(dtype=reduction_dtype)
            self.coeff = 1 / xp.maximum(count, 1)
        else:
            self.coeff = reduction_dtype.type(1. / max(len(x), 1))
        total = loss.sum(dtype=reduction_dtype) * self.coeff
        return utils.force_array(total, dtype),

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        gy, = grad_outputs
        gx, = SigmoidCrossEntropyGrad(
            self.reduce, self.coeff, self.ignore_mask, t.array).apply((x, gy))
        return gx, None


class SigmoidCrossEntropyGrad(function_node.FunctionNode):

    """Gradient of :class:`SigmoidCrossEntropy` with respect to ``x``."""

    def __init__(self, reduce, coeff, ignore_mask, t):
        self.reduce = reduce
        # 1 / count when the loss is a mean, else None
        self.coeff = coeff
        self.ignore_mask = ignore_mask
        self.t = t

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        dtype = x.dtype
        gx = _numerics.sigmoid(x)
        gx -= self.t
        gx *= self.ignore_mask
        if self.reduce == 'mean':
            gx *= (gy * self.coeff).astype(dtype)
        else:
            gx *= gy
        return utils.force_array(gx, dtype),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        dtype = x.dtype
        y = sigmoid.sigmoid(x)
        ggx = ggx * self.ignore_mask
        if self.reduce == 'mean':
            ggx = ggx * self.coeff.astype(dtype)
        ret = []
        if 0 in indexes:
            ret.append(ggx * gy * y * (1 - y))
        if 1 in indexes:
            ggy = ggx * (y - self.t.astype(dtype))
            if self.reduce == 'mean':
                ggy = sum_module.sum(ggy)
            ret.append(ggy)
        return ret


def sigmoid_cross_entropy(x, t, normalize=True, reduce='mean'):
    """Binary cross entropy computed from logits.

    Each element of ``x`` is the logit of the probability that its binary
    label in ``t`` is 1. The loss is computed from ``x`` directly, which is
    stable even for large logits.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The logits, of a
            float dtype.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): The labels, 0 or
            1, a signed integer array of the shape of ``x``. The elements
            whose label is ``-1`` are ignored; the loss is zero if all are.
            Any other label raises :class:`ValueError`.
        normalize (bool): With ``reduce='mean'``, divide the summed loss by
            the number of labels that are not ignored if ``True`` (default),
            or by the batch size ``len(x)`` if ``False``.
        reduce (str): ``'mean'`` (default) reduces the losses to a scalar as
            ``normalize`` says; ``'no'`` keeps the element-wise losses, zero
            where the label is ignored. Any other value raises
            :class:`ValueError`.

    Returns:
        ~chainer.Variable: A scalar loss, or the element-wise losses of the
        shape of ``x`` when ``reduce`` is ``'no'``.

    .. note::

       Gradients flow to ``x`` alone.

    .. admonition:: Example

        >>> x = np.array([[-2., 3., 0.5], [5., 2., -0.5]], np.float32)
        >>> t = np.array([[0, 1, 0], [1, 1, -1]], np.int32)
        >>> F.sigmoid_cross_entropy(x, t)
        variable(0.25664714)
        >>> F.sigmoid_cross_entropy(x, t, normalize=False)
        variable(0.64161783)
        >>> F.sigmoid_cross_entropy(x, t, reduce='no').shape
        (2, 3)

    """
    return SigmoidCrossEntropy(normalize, reduce).apply((x, t))[0]
