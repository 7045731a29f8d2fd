from chainer import backend
from chainer.functions.array import concat
from chainer.functions.array import get_item
from chainer.functions.array import reshape
from chainer.functions.loss import _labels
from chainer.functions.loss import _reduce_option
from chainer.functions.math import average
from chainer.functions.math import exponential
from chainer.functions.math import logarithm_1p
from chainer.functions.math import logsumexp
from chainer.functions.math import matmul
from chainer.functions.math import sum as sum_module
from chainer import variable


def black_out(x, t, W, samples, reduce='mean'):
    """BlackOut loss.

    With :math:`t` the correct label and :math:`S` a set of negative
    samples, the loss is

    .. math::

      -\\log(p(t)) - \\sum_{s \\in S} \\log(1 - p(s)),

    where the likelihood of a label is normalized over the correct label
    and the samples only:

    .. math::

       p(y) = \\frac{\\exp(W_y^\\top x)}{
       \\sum_{s \\in \\{t\\} \\cup S} \\exp(W_s^\\top x)}.

    See `BlackOut: Speeding up Recurrent Neural Network Language Models With
    Very Large Vocabularies <https://arxiv.org/abs/1511.06909>`_.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The input
            vectors, of shape :math:`(N, D)`.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): The correct
            labels, an integer vector of shape :math:`(N,)` whose elements
            are in :math:`[0, V)`, with :math:`V` the number of labels.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): The weight
            matrix, of shape :math:`(V, D)`.
        samples (:class:`~chainer.Variable` or :ref:`ndarray`): The negative
            samples, an integer array of shape :math:`(N, S)` whose
            elements are in :math:`[0, V)`. For ``t`` and ``samples``, a
            label at or beyond :math:`V` raises :class:`IndexError`, a
            negative one :class:`ValueError`, as do other shapes than
            :math:`(N,)` and :math:`(N, S)`.
        reduce (str): ``'mean'`` (default) averages the losses over the
            batch; ``'no'`` keeps one loss per example. Any other value
            raises :class:`ValueError`.

    Returns:
        ~chainer.Variable: A scalar loss, or the :math:`(N,)` losses when
        ``reduce`` is ``'no'``.

    .. seealso::

        :class:`~chainer.links.BlackOut`, the link that holds ``W``.

    .. admonition:: Example

        >>> x = np.ones((1, 2), np.float32)
        >>> W = np.zeros((3, 2), np.float32)
        >>> t = np.array([0], np.int32)
        >>> samples = np.array([[1, 2]], np.int32)
        >>> loss = F.black_out(x, t, W, samples)  # p(y) = 1 / 3 for all y
        >>> bool(abs(loss.array - (np.log(3) - 2 * np.log(2 / 3))) < 1e-6)
        True

    """
    _reduce_option.check(reduce, ('mean', 'no'))
    t = variable.as_array(t)
    samples = variable.as_array(samples)
    batch_size, n_in = x.shape
    if t.shape != (batch_size,) or samples.ndim != 2 \
            or len(samples) != batch_size:
        # other shapes would broadcast into a number
        raise ValueError(
            't must be of shape (N,) and samples of shape (N, S), with '
            'N = len(x) = {}, but their shapes are {} and {}'.format(
                batch_size, t.shape, samples.shape))
    n_vocab = len(W)
    xp = backend.get_array_module(t)
    _labels.check_labels(
        xp.concatenate((samples.ravel(), t.ravel())), n_vocab,
        't and samples', axis=0,
        message='each label of t and samples must be in [0, %d), but {} is '
        'given' % n_vocab)
    x_col = reshape.reshape(x, (batch_size, n_in, 1))
    # the scores W_s^T x of the samples and W_t^T x of the correct labels
    neg_y = matmul.matmul(get_item.get_item(W, samples), x_col)
    neg_y = reshape.reshape(neg_y, neg_y.shape[:2])
    pos_y = sum_module.sum(get_item.get_item(W, t) * x, axis=1)
    log_z = logsumexp.logsumexp(
        concat.concat([reshape.reshape(pos_y, (batch_size, 1)), neg_y]),
        axis=1)
    # log(1 - p(s)) for the samples
    neg_p = exponential.exp(neg_y - reshape.reshape(log_z, (batch_size, 1)))
    log_neg = sum_module.sum(logarithm_1p.log1p(-neg_p), axis=1)
    loss = log_z - pos_y - log_neg
    if reduce == 'mean':
        return average.average(loss)
    return loss
