from chainer import backend
from chainer.functions.array import _index
from chainer import function_node
from chainer.utils import type_check


def _check_scores_and_labels(in_types):
    """Type-checks the inputs of a classification metric.

    They are the class scores ``x``, of a float dtype, with the classes
    along the second axis, and the integer labels ``t``, shaped as ``x``
    without that axis (and possibly without trailing axes).

    Returns:
        tuple: The type of ``x`` and the number of axes of ``t``.
    """
    type_check._argname(in_types, ('x', 't'))
    x_type, t_type = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        t_type.dtype.kind == 'i',
        x_type.ndim >= 2,
    )
    t_ndim = type_check.eval(t_type.ndim)
    type_check.expect(
        x_type.ndim >= t_type.ndim,
        x_type.shape[0] == t_type.shape[0],
        x_type.shape[2: t_ndim + 1] == t_type.shape[1:],
    )
    return x_type, t_ndim


class Accuracy(function_node.FunctionNode):

    """Classification accuracy; not differentiable."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        x_type, t_ndim = _check_scores_and_labels(in_types)
        for i in range(t_ndim + 1, type_check.eval(x_type.ndim)):
            type_check.expect(x_type.shape[i] == 1)

    def forward(self, inputs):
        y, t = inputs
        xp = backend.get_array_module(y, t)
        label = _index.first_out_of_range(t, y.shape[1], self.ignore_label)
        if label is not None:
            raise ValueError(
                'label {} is out of range for {} classes; each label must '
                'satisfy `0 <= t < y.shape[1]` or equal ignore_label'.format(
                    label, y.shape[1]))
        pred = y.argmax(axis=1).reshape(t.shape)
        if self.ignore_label is None:
            return xp.asarray((pred == t).mean(), dtype=y.dtype),
        valid = t != self.ignore_label
        n_valid = valid.sum()
        n_correct = (valid & (pred == t)).sum()
        # All the labels ignored: the accuracy is zero.
        return xp.asarray(
            n_correct / xp.maximum(n_valid, 1), dtype=y.dtype),


def accuracy(y, t, ignore_label=None):
    """Classification accuracy of a mini-batch.

    Args:
        y (:class:`~chainer.Variable` or :ref:`ndarray`): The predicted
            scores, of shape ``(N, C)`` or ``(N, C, d_1, ..., d_k)``: for
            each sample (and position), one score per class. Axes beyond
            those of ``t`` must have length one.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): The ground-truth
            labels, of a signed integer dtype and of shape ``(N,)`` or
            ``(N, d_1, ..., d_k)``.
        ignore_label (int or None): Samples with this label are left out.
            If all are left out, the accuracy is zero.

    Raises:
        ValueError: If a label that is not ``ignore_label`` is out of
            ``[0, C)``.

    Returns:
        ~chainer.Variable: The 0-dimensional share of samples whose highest
        score is at their label, of the dtype of ``y``; not
        differentiable.

    .. admonition:: Example

        >>> y = np.array([[0.1, 0.7, 0.2], [8., 1., 2.], [-8., 1., 2.]],
        ...              np.float32)
        >>> t = np.array([1, 0, 0], np.int32)
        >>> F.accuracy(y, t).array
        array(0.6666667, dtype=float32)
        >>> F.accuracy(y, np.array([1, 0, -1], np.int32),
        ...            ignore_label=-1).array
        array(1., dtype=float32)

    """
    return Accuracy(ignore_label=ignore_label).apply((y, t))[0]
