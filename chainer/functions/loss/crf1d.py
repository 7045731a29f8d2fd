import numpy

from chainer import backend
from chainer.functions.array import concat
from chainer.functions.array import get_item
from chainer.functions.array import reshape
from chainer.functions.array import select_item
from chainer.functions.array import split_axis
from chainer.functions.loss import _labels
from chainer.functions.loss import _reduce_option
from chainer.functions.math import logsumexp
from chainer.functions.math import minmax
from chainer.functions.math import sum as sum_module
from chainer import variable


def _check_shapes(cost, xs):
    if cost.ndim != 2 or cost.shape[0] != cost.shape[1]:
        raise ValueError(
            'cost must be a square matrix, but its shape is {}'.format(
                cost.shape))
    if not xs:
        raise ValueError('xs must not be empty')
    if xs[0].shape[1] != cost.shape[0]:
        raise ValueError(
            'the number of labels of xs ({}) differs from that of cost '
            '({})'.format(xs[0].shape[1], cost.shape[0]))


def _split(x, batch, rest):
    # The first ``batch`` rows of x; the others are appended to rest.
    if x.shape[0] > batch:
        x, x_rest = split_axis.split_axis(x, [batch], axis=0)
        rest.append(x_rest)
    return x


def _transition_scores(alpha, cost):
    # scores[b, i, j] = alpha[b, i] + cost[i, j]
    batch, n_label = alpha.shape
    return reshape.reshape(alpha, (batch, n_label, 1)) + cost


def crf1d(cost, xs, ys, reduce='mean'):
    """Negative log-likelihood of a linear-chain CRF.

    With :math:`c_{st}` the cost of the transition from label :math:`s` to
    label :math:`t`, :math:`x_{it}` the cost of label :math:`t` at position
    :math:`i`, and :math:`y_i` the expected label at position :math:`i`,
    the negative log-likelihood of a sequence of length :math:`l` is

    .. math::

        L = -\\left( \\sum_{i=1}^l x_{iy_i} +
             \\sum_{i=1}^{l-1} c_{y_i y_{i+1}} - {\\log(Z)} \\right),

    where the partition function :math:`Z` sums the exponentiated scores
    of all the label sequences. See `Conditional Random Fields:
    Probabilistic Models for Segmenting and Labeling Sequence Data
    <https://repository.upenn.edu/cis_papers/159/>`_.

    .. note::

       Sequences of different lengths are given transposed, sorted from
       the longest to the shortest: ``xs[i]`` stacks the inputs at position
       ``i`` of the sequences that are longer than ``i``. For the
       sequences ``a = [a1, a2, a3]``, ``b = [b1, b2]`` and ``c = [c1]``
       (arrays of shape :math:`(K,)`)::

           xs = [np.stack([a1, b1, c1]), np.stack([a2, b2]),
                 np.stack([a3])]

       and ``ys`` holds the labels in the same fashion.
       :func:`~chainer.functions.transpose_sequence` does this.

    Args:
        cost (:class:`~chainer.Variable` or :ref:`ndarray`): The
            :math:`K \\times K` matrix of transition costs, where :math:`K`
            is the number of labels.
        xs (list of :class:`~chainer.Variable` or :ref:`ndarray`): The
            costs of the labels at each position: ``xs[i]`` has shape
            :math:`(B_i, K)`, with :math:`B_i` the number of sequences
            longer than ``i`` (non-increasing in ``i``).
        ys (list of :class:`~chainer.Variable` or :ref:`ndarray`): The
            expected labels, of the same length as ``xs`` (another length
            raises :class:`ValueError`): ``ys[i]`` is an
            integer vector of shape :math:`(B_i,)`, of labels in
            :math:`[0, K)`: a label at or beyond :math:`K` raises
            :class:`IndexError`, a negative one :class:`ValueError`.
        reduce (str): ``'mean'`` (default) averages the losses over the
            sequences; ``'no'`` keeps one loss per sequence. Any other value
            raises :class:`ValueError`.

    Returns:
        ~chainer.Variable: A scalar loss, or the :math:`(B_0,)` losses of
        the sequences when ``reduce`` is ``'no'``.

    .. admonition:: Example

        >>> cost = np.zeros((2, 2), np.float32)
        >>> xs = [np.zeros((1, 2), np.float32)] * 3
        >>> ys = [np.zeros(1, np.int32)] * 3
        >>> loss = F.crf1d(cost, xs, ys)  # all 8 label sequences are equal
        >>> bool(abs(loss.array - np.log(8)) < 1e-6)
        True

    """
    _reduce_option.check(reduce, ('mean', 'no'))
    _check_shapes(cost, xs)
    ys = [variable.as_array(y) for y in ys]
    if len(ys) != len(xs):
        # zip would cut the longer one: a silent number
        raise ValueError(
            'ys must hold one label array per element of xs, but len(xs) '
            'is {} and len(ys) is {}'.format(len(xs), len(ys)))
    n_label = cost.shape[0]
    n_batch = xs[0].shape[0]
    xp = backend.get_array_module(*ys)
    _labels.check_labels(
        xp.concatenate([y.ravel() for y in ys]), n_label, 'ys', axis=1)

    # The forward algorithm, in the log domain; the sequences that end
    # leave their last alphas in ``done``.
    alpha = xs[0]
    done = []
    for x in xs[1:]:
        alpha = _split(alpha, x.shape[0], done)
        alpha = logsumexp.logsumexp(
            _transition_scores(alpha, cost), axis=1) + x
    if done:
        alpha = concat.concat([alpha] + done[::-1], axis=0)
    log_z = logsumexp.logsumexp(alpha, axis=1)

    # The score of the expected label sequence.
    flat_cost = reshape.reshape(cost, (n_label * n_label,))
    score = select_item.select_item(xs[0], ys[0])
    done = []
    for x, y, y_prev in zip(xs[1:], ys[1:], ys[:-1]):
        batch = x.shape[0]
        score = _split(score, batch, done)
        transition = get_item.get_item(
            flat_cost, y_prev[:batch] * n_label + y)
        # Chainer's order of the sums (it shows in float16).
        score = score + (select_item.select_item(x, y) + transition)
    if done:
        score = concat.concat([score] + done[::-1], axis=0)

    loss = log_z - score
    if reduce == 'mean':
        return sum_module.sum(loss) / n_batch
    return loss


def argmax_crf1d(cost, xs):
    """The most probable label sequences of a linear-chain CRF (Viterbi).

    Args:
        cost (:class:`~chainer.Variable` or :ref:`ndarray`): The
            :math:`K \\times K` matrix of transition costs, where :math:`K`
            is the number of labels.
        xs (list of :class:`~chainer.Variable` or :ref:`ndarray`): The
            costs of the labels at each position, transposed and sorted as
            for :func:`crf1d`: ``xs[i]`` has shape :math:`(B_i, K)`.

    Returns:
        tuple: A :class:`~chainer.Variable` ``s`` and a :class:`list`
        ``ps``. ``s``, of shape :math:`(B_0,)`, holds the score (the
        unnormalized log-likelihood) of the best label sequence of each
        input sequence. ``ps[i]``, an ``int32`` array of shape
        :math:`(B_i,)`, holds the labels of the best sequences at position
        ``i``.

    .. admonition:: Example

        >>> cost = np.array([[0., -1.], [-1., 0.]], np.float32)
        >>> xs = [np.array([[2., 0.]], np.float32),
        ...       np.array([[0., 0.5]], np.float32)]
        >>> score, path = F.argmax_crf1d(cost, xs)
        >>> score.array
        array([2.], dtype=float32)
        >>> [p.tolist() for p in path]
        [[0], [0]]

    """
    _check_shapes(cost, xs)
    alpha = variable.as_variable(xs[0])
    # The alphas of the sequences that end, by position (None where none
    # does), and the best previous label of each label at each position.
    done = []
    best_prev = []
    for x in xs[1:]:
        batch = x.shape[0]
        rest = []
        alpha = _split(alpha, batch, rest)
        done.append(rest[0] if rest else None)
        scores = _transition_scores(alpha, cost)
        best_prev.append(scores.array.argmax(axis=1))
        alpha = minmax.max(scores, axis=1) + x

    # Backtrack from the best last label of each sequence.
    xp = backend.get_array_module(alpha)
    labels = alpha.array.argmax(axis=1)
    path = [labels.astype(numpy.int32)]
    for prev, rest in zip(best_prev[::-1], done[::-1]):
        labels = prev[xp.arange(len(labels)), labels]
        if rest is not None:
            labels = xp.concatenate([labels, rest.array.argmax(axis=1)])
        path.append(labels.astype(numpy.int32))
    path.reverse()

    scores = [minmax.max(alpha, axis=1)]
    scores += [minmax.max(rest, axis=1) for rest in done[::-1]
               if rest is not None]
    if len(scores) > 1:
        return concat.concat(scores, axis=0), path
    return scores[0], path
