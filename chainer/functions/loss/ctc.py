import collections.abc

import numpy

from chainer import backend
from chainer.functions import _numerics
from chainer.functions.array import stack
from chainer.functions.loss import _labels
from chainer.functions.loss import _reduce_option
from chainer import function
from chainer import utils
from chainer.utils import type_check


def _logsumexp(a, axis):
    return _numerics.logsumexp(a, axis).squeeze(axis=axis)


def _log_softmax(x, zero):
    # log softmax over the last axis; probabilities that underflow to zero
    # become the log-domain padding ``zero``
    xp = backend.get_array_module(x)
    log_y = _numerics.log_softmax(x, -1)
    return xp.maximum(log_y, zero, out=log_y)


def _label_to_path(labels, blank_symbol, xp):
    # blank, l1, blank, l2, ..., blank
    path = xp.full((len(labels), labels.shape[1] * 2 + 1),
                   blank_symbol, dtype=numpy.int32)
    path[:, 1::2] = labels
    return path


def _check_lengths_and_labels(input_length, label_length, t, x_shape):
    # Lengths beyond the arrays, and negative labels, would give a number
    # silently; a label beyond the units raises IndexError, as indexing with
    # it does. The labels past each label length are padding: any index of
    # the units will do.
    n_time, _, n_unit = x_shape
    _labels.check_labels(
        input_length, n_time + 1, 'input_length',
        message='each input_length must be in [0, %d], the length of x, '
        'but {} is given' % n_time)
    _labels.check_labels(
        label_length, t.shape[1] + 1, 'label_length',
        message='each label_length must be in [0, %d], the length of t, '
        'but {} is given' % t.shape[1])
    xp = backend.get_array_module(t)
    in_label = xp.arange(t.shape[1]) < label_length[:, None]
    _labels.check_labels(t[in_label], n_unit, 't', axis=2)


class ConnectionistTemporalClassification(function.Function):

    """Connectionist Temporal Classification loss.

    The forward and backward variables are computed in the log domain, and
    the softmax of the inputs is part of the function: the gradient with
    respect to the unnormalized inputs does not overflow.
    """

    def __init__(self, blank_symbol, reduce='mean'):
        self.blank_symbol = blank_symbol
        # The log-domain zero; set by the first forward for its dtype.
        self.zero_padding = None
        _reduce_option.check(reduce, ('mean', 'no'))
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(
            in_types, ('input_length', 'label_length', 't', 'x'))
        input_length_type, label_length_type, t_type, x_type = in_types
        type_check.expect(
            input_length_type.dtype == numpy.int32,
            input_length_type.ndim == 1,
            label_length_type.dtype == numpy.int32,
            label_length_type.ndim == 1,
            t_type.ndim == 2,
            t_type.dtype == numpy.int32,
            x_type.ndim == 3,
            x_type.dtype.kind == 'f',
        )
        n_batch = x_type.shape[1]
        type_check.expect(
            t_type.shape[0] == n_batch,
            input_length_type.shape[0] == n_batch,
            label_length_type.shape[0] == n_batch,
        )

    def _transition(self, prob, path_same, outside, forward):
        # log-sum-exp of the probabilities of staying, of moving one step
        # and of skipping a blank along the path (forward: from s - 1 and
        # s - 2 to s; backward: from s + 1 and s + 2 to s)
        xp = backend.get_array_module(prob)
        zero = self.zero_padding
        mat = xp.full((3,) + prob.shape, zero, prob.dtype)
        mat[0] = prob
        if forward:
            mat[1, :, 1:] = prob[:, :-1]
            mat[2, :, 2:] = xp.where(path_same, zero, prob[:, :-2])
        else:
            mat[1, :, :-1] = prob[:, 1:]
            mat[2, :, :-2] = xp.where(path_same, zero, prob[:, 2:])
        ret = _logsumexp(mat, axis=0)
        ret[outside] = zero
        return ret

    def _path_probability(self, log_y, path, path_length, input_length):
        # log of the summed probabilities of the alignments that pass
        # through each position s of the path at each time i
        xp = backend.get_array_module(log_y)
        zero = self.zero_padding
        n_time, n_batch = log_y.shape[:2]
        max_path_length = path.shape[1]
        batch_index = xp.arange(n_batch)[:, None]
        # log_y_path[i, b, s] = log_y[i, b, path[b, s]]
        log_y_path = log_y[:, batch_index, path]
        path_same = path[:, :-2] == path[:, 2:]
        positions = xp.arange(max_path_length)
        outside = positions >= path_length[:, None]

        prob = xp.empty_like(log_y_path)
        alpha = xp.full((n_batch, max_path_length), zero, log_y.dtype)
        alpha[:, 0] = 0
        for i in range(n_time):
            alpha = self._transition(alpha, path_same, outside, True)
            alpha += log_y_path[i]
            prob[i] = alpha

        # The backward variables start at each sequence's own last time
        # step, from the last two positions of its path.
        start = xp.full((n_batch, max_path_length), zero, log_y.dtype)
        start[xp.arange(n_batch), path_length - 1] = 0
        beta_next = start
        for i in range(n_time - 1, -1, -1):
            beta = self._transition(beta_next, path_same, outside, False)
            prob[i] += beta
            beta += log_y_path[i]
            beta_next = xp.where(
                (i < input_length)[:, None], beta, start)
        return prob

    def forward(self, inputs):
        self.retain_inputs(())
        xp = backend.get_array_module(inputs[0])
        input_length, label_length, t, xs = inputs
        if self.zero_padding is None:
            if xs.dtype == numpy.float16:
                self.zero_padding = -10000.0
            else:
                self.zero_padding = -10000000000.0
        _check_lengths_and_labels(input_length, label_length, t, xs.shape)

        self.input_length = input_length
        self.path_length = 2 * label_length + 1
        self.path = _label_to_path(t, self.blank_symbol, xp)
        log_y = _log_softmax(xs, xs.dtype.type(self.zero_padding))
        self.log_y = log_y
        self.prob_trans = self._path_probability(
            log_y, self.path, self.path_length, input_length)
        loss = -_logsumexp(self.prob_trans[0], axis=1)
        if self.reduce == 'mean':
            loss = loss.mean()
        return utils.force_array(loss, xs.dtype),

    def backward(self, inputs, grad_output):
        xp = backend.get_array_module(self.log_y)
        gloss, = grad_output
        n_time, n_batch, n_unit = self.log_y.shape
        path, path_length = self.path, self.path_length
        total = _logsumexp(self.prob_trans[0], axis=1)
        # the posterior of each position of the path at each time
        posterior = xp.exp(self.prob_trans - total[:, None])
        posterior *= xp.arange(path.shape[1]) < path_length[:, None]
        # gx = softmax(x) - (the posterior summed over the positions of
        # each label), masked beyond the input length
        gx = xp.exp(self.log_y)
        batch_index = xp.arange(n_batch)
        for s in range(path.shape[1]):
            gx[:, batch_index, path[:, s]] -= posterior[:, :, s]
        if self.reduce == 'mean':
            gx *= gloss / gloss.dtype.type(n_batch)
        else:
            gx *= gloss[:, None]
        gx *= (xp.arange(n_time)[:, None] < self.input_length)[..., None]
        return None, None, None, gx


def connectionist_temporal_classification(
        x, t, blank_symbol, input_length=None, label_length=None,
        reduce='mean'):
    """Connectionist Temporal Classification loss.

    CTC [Graves2006]_ is a loss for sequence labelling when the alignment
    between the inputs and the target is unknown: it sums the probabilities
    of all the alignments of the label sequence to the inputs, with blanks
    between (and repeats of) the labels. See also [Graves2012]_.

    Args:
        x (list or tuple of :class:`~chainer.Variable`): The unnormalized
            log probabilities of the labels at each time step: ``x[i]`` has
            shape :math:`(B, V)`, with :math:`B` the batch size and
            :math:`V` the number of labels (blank included). The softmax
            is applied here: do not apply one before.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): The label
            sequences, an ``int32`` matrix of shape :math:`(B, M)` with
            :math:`M` the longest label length; each label within its label
            length is in :math:`[0, V)`: one at or beyond :math:`V` raises
            :class:`IndexError`, a negative one :class:`ValueError`.
        blank_symbol (int): The index of the blank label; non-negative.
        input_length (:class:`~chainer.Variable` or :ref:`ndarray`): The
            ``int32`` lengths of the input sequences, of shape :math:`(B,)`.
            ``None`` (default) takes all of ``x`` for each sequence. A
            length beyond ``len(x)`` or negative raises :class:`ValueError`.
        label_length (:class:`~chainer.Variable` or :ref:`ndarray`): The
            ``int32`` lengths of the label sequences, of shape :math:`(B,)`.
            ``None`` (default) takes all of ``t``. A length beyond
            ``t.shape[1]`` or negative raises :class:`ValueError`.
        reduce (str): ``'mean'`` (default) averages the losses over the
            batch; ``'no'`` keeps one loss per sequence. Any other value
            raises :class:`ValueError`.

    Returns:
        ~chainer.Variable: A scalar loss, or the :math:`(B,)` losses when
        ``reduce`` is ``'no'``.

    .. note::

       Gradients flow to ``x`` alone. It supports
       one-dimensional inputs at each time step only. Apply a softmax to
       ``x`` before decoding.

    .. [Graves2006] Alex Graves, Santiago Fernandez,
       Faustino Gomez, Jurgen Schmidhuber,
       `Connectionist Temporal Classification: Labelling Unsegmented
       Sequence Data with Recurrent Neural Networks
       <ftp://ftp.idsia.ch/pub/juergen/icml2006.pdf>`_
    .. [Graves2012] Alex Graves,
       `Supervised Sequence Labelling with Recurrent Neural Networks
       <https://www.cs.toronto.edu/~graves/preprint.pdf>`_

    .. admonition:: Example

        >>> x = [np.zeros((1, 3), np.float32)] * 2
        >>> t = np.array([[1]], np.int32)
        >>> loss = F.connectionist_temporal_classification(x, t, 0)
        >>> bool(abs(loss.array - np.log(3)) < 1e-6)
        True

    """
    if not isinstance(x, collections.abc.Sequence):
        raise TypeError('x must be a list of Variables')
    if not isinstance(blank_symbol, int):
        raise TypeError('blank_symbol must be non-negative integer.')
    if x[0].ndim != 2:
        raise ValueError(
            'each element of x must be a (B, V) matrix; ndim {} is '
            'given'.format(x[0].ndim))
    if not 0 <= blank_symbol < x[0].shape[1]:
        raise ValueError(
            'blank_symbol must be in [0, {}), but {} is given'.format(
                x[0].shape[1], blank_symbol))
    if t.ndim != 2:
        raise type_check.InvalidType('t.ndim == 2', 't.ndim == %d' % t.ndim)
    xp = backend.get_array_module(x[0])
    if input_length is None:
        input_length = xp.full(len(x[0]), len(x), dtype=numpy.int32)
    if label_length is None:
        label_length = xp.full(len(t), t.shape[1], dtype=numpy.int32)
    return ConnectionistTemporalClassification(blank_symbol, reduce)(
        input_length, label_length, t, stack.stack(x))
