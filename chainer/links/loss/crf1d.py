"""Linear-chain conditional random field layer."""

from chainer.functions.array import transpose_sequence
from chainer.functions.loss import crf1d
from chainer import initializers
from chainer import link
from chainer.links.rnn.n_step_rnn import argsort_list_descent
from chainer.links.rnn.n_step_rnn import permutate_list
from chainer import variable


class CRF1d(link.Link):
    """Linear-chain CRF layer, holding the transition costs of
    :func:`~chainer.functions.crf1d`.

    Args:
        n_label (int): Number of labels.
        initial_cost: Initializer of the costs; ``None`` means zeros.

    Attributes:
        cost (~chainer.Parameter): Transition costs of shape ``(n_label,
            n_label)``; ``cost[i, j]`` scores label ``j`` following ``i``.

    Sequences are given time-major by default (``xs[t]`` holds step ``t``
    of every sequence, longest sequences first), or batch-major with
    ``transpose=True`` (``xs[b]`` is sequence ``b``, in any order).
    """

    def __init__(self, n_label, initial_cost=None):
        super().__init__()
        if initial_cost is None:
            initial_cost = initializers.Zero()
        with self.init_scope():
            self.cost = variable.Parameter(
                initializer=initial_cost, shape=(n_label, n_label))

    def forward(self, xs, ys, reduce='mean', transpose=False):
        """Computes the negative log-likelihood of the label sequences.

        Args:
            xs (list of :class:`~chainer.Variable`): Scores of shape
                ``(batch, n_label)`` per step (or ``(length, n_label)`` per
                sequence with ``transpose``).
            ys (list of :class:`~chainer.Variable`): ``int32`` labels, laid
                out like ``xs``.
            reduce (str): ``'mean'`` or ``'no'``.
            transpose (bool): Whether the sequences are batch-major.

        Returns:
            ~chainer.Variable: The loss.
        """
        if transpose:
            indices = argsort_list_descent(xs)
            xs = transpose_sequence.transpose_sequence(
                permutate_list(xs, indices, inv=False))
            ys = transpose_sequence.transpose_sequence(
                permutate_list(ys, indices, inv=False))
        return crf1d.crf1d(self.cost, xs, ys, reduce)

    def argmax(self, xs, transpose=False):
        """Finds the most likely label sequences (Viterbi).

        Args:
            xs (list of :class:`~chainer.Variable`): Scores, as in
                :meth:`forward`.
            transpose (bool): Whether the sequences are batch-major; the
                paths are then returned per sequence, in the given order.

        Returns:
            tuple: The scores of the best paths and the paths (a list of
            ``int32`` arrays).
        """
        if not transpose:
            return crf1d.argmax_crf1d(self.cost, xs)
        indices = argsort_list_descent(xs)
        xs = transpose_sequence.transpose_sequence(
            permutate_list(xs, indices, inv=False))
        score, path = crf1d.argmax_crf1d(self.cost, xs)
        path = transpose_sequence.transpose_sequence(path)
        path = permutate_list([p.array for p in path], indices, inv=True)
        return score, path
