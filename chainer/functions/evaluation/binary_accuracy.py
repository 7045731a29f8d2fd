from chainer import backend
from chainer import function
from chainer.utils import type_check


class BinaryAccuracy(function.Function):

    """Accuracy of binary classification; not differentiable."""

    ignore_label = -1

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            t_type.shape == x_type.shape,
        )

    def forward(self, inputs):
        y, t = inputs
        xp = backend.get_array_module(y, t)
        # A score of zero or more predicts the positive class.
        pred = y >= 0
        valid = t != self.ignore_label
        n_valid = valid.sum()
        n_correct = (valid & (pred == t)).sum()
        return xp.asarray(
            n_correct / xp.maximum(n_valid, 1), dtype=y.dtype),


def binary_accuracy(y, t):
    """Accuracy of binary classification.

    A score ``y`` of zero or more predicts the label 1, a negative one the
    label 0. Labels equal to -1 are left out; if all are, the accuracy is
    zero.

    Args:
        y (:class:`~chainer.Variable` or :ref:`ndarray`): The scores (for
            example the logits of a sigmoid), of a float dtype.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): The labels, 0, 1
            or -1, of a signed integer dtype and of the shape of ``y``.

    Returns:
        ~chainer.Variable: The 0-dimensional share of correct predictions,
        of the dtype of ``y``; not differentiable.

    .. admonition:: Example

        >>> y = np.array([[-2.0, 0.0], [3.0, -5.0]], np.float32)
        >>> t = np.array([[0, 0], [1, -1]], np.int32)
        >>> F.binary_accuracy(y, t).array
        array(0.6666667, dtype=float32)

    """
    return BinaryAccuracy()(y, t)
