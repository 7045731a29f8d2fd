import numpy

from chainer import backend
from chainer import function
from chainer.functions.evaluation import accuracy


def _fbeta_score(precision, recall, beta):
    beta_square = beta * beta
    return ((1 + beta_square) * precision * recall
            / (beta_square * precision + recall))


class ClassificationSummary(function.Function):

    """Precision, recall, F-beta score and support of each class; not
    differentiable."""

    def __init__(self, label_num, beta, ignore_label):
        self.label_num = label_num
        self.beta = beta
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        accuracy._check_scores_and_labels(in_types)

    def forward(self, inputs):
        y, t = inputs
        xp = backend.get_array_module(y, t)
        label_num = self.label_num
        if label_num is None:
            label_num = int(t.max()) + 1 if t.size else 0
        pred = y.argmax(axis=1).reshape(t.shape)
        valid = t != self.ignore_label
        t = t[valid]
        pred = pred[valid]

        def count(labels):
            # Counts of each class; classes from label_num on are dropped.
            return xp.bincount(labels, minlength=label_num)[:label_num]

        true_positive = count(t[pred == t])
        support = count(t)
        relevant = count(pred)
        with numpy.errstate(divide='ignore', invalid='ignore'):
            precision = true_positive / relevant
            recall = true_positive / support
            fbeta = _fbeta_score(precision, recall, self.beta)
        return precision, recall, fbeta, support


def classification_summary(y, t, label_num=None, beta=1.0, ignore_label=-1):
    """Precision, recall, F-beta score and support of each class.

    For each class ``c``, with the predicted class of a sample being the
    one of its highest score:

    - the precision is the share of samples predicted ``c`` that are
      labelled ``c``;
    - the recall is the share of samples labelled ``c`` that are
      predicted ``c``;
    - the F-beta score is
      :math:`(1 + \\beta^2) PR / (\\beta^2 P + R)`;
    - the support is the number of samples labelled ``c``.

    A ratio with a zero denominator is NaN.

    Args:
        y (:class:`~chainer.Variable` or :ref:`ndarray`): The predicted
            scores, of shape ``(N, C)`` or ``(N, C, d_1, ..., d_k)``.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): The ground-truth
            labels, of a signed integer dtype and of shape ``(N,)`` or
            ``(N, d_1, ..., d_k)``.
        label_num (int): The number of classes; by default one more than
            the largest label of ``t``.
        beta (float): The weight of the recall in the F-beta score.
        ignore_label (int): Samples with this label are left out.

    Returns:
        tuple of ~chainer.Variable: The precisions, recalls and F-beta
        scores (float64) and the supports (int64), each of length
        ``label_num``; not differentiable.

    .. admonition:: Example

        >>> y = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], np.float32)
        >>> t = np.array([0, 1, 1], np.int32)
        >>> p, r, f, s = F.classification_summary(y, t)
        >>> p.array, r.array, s.array
        (array([0.5, 1. ]), array([1. , 0.5]), array([1, 2]))

    """
    return ClassificationSummary(label_num, beta, ignore_label)(y, t)


def precision(y, t, label_num=None, ignore_label=-1):
    """Precision of each class; see :func:`classification_summary`.

    Returns:
        tuple of ~chainer.Variable: The precisions and the supports.
    """
    ret = ClassificationSummary(label_num, 1.0, ignore_label)(y, t)
    return ret[0], ret[-1]


def recall(y, t, label_num=None, ignore_label=-1):
    """Recall of each class; see :func:`classification_summary`.

    Returns:
        tuple of ~chainer.Variable: The recalls and the supports.
    """
    ret = ClassificationSummary(label_num, 1.0, ignore_label)(y, t)
    return ret[1], ret[-1]


def fbeta_score(y, t, label_num=None, beta=1.0, ignore_label=-1):
    """F-beta score of each class; see :func:`classification_summary`.

    Returns:
        tuple of ~chainer.Variable: The F-beta scores and the supports.
    """
    ret = ClassificationSummary(label_num, beta, ignore_label)(y, t)
    return ret[2], ret[-1]


def f1_score(y, t, label_num=None, ignore_label=-1):
    """F1 score of each class; see :func:`classification_summary`.

    Returns:
        tuple of ~chainer.Variable: The F1 scores and the supports.
    """
    ret = ClassificationSummary(label_num, 1.0, ignore_label)(y, t)
    return ret[2], ret[-1]
