"""BlackOut loss layer."""

import numpy

from chainer.functions.loss import black_out
from chainer import link
from chainer.utils import walker_alias
from chainer import variable


class BlackOut(link.Link):
    """BlackOut loss layer, holding the output embedding of
    :func:`~chainer.functions.black_out` and a sampler of negative
    examples drawn from the word counts.

    Args:
        in_size (int): Width of each input row.
        counts (sequence of ints): Frequency of each word; negative
            samples are drawn in proportion to it.
        sample_size (int): Number of negative samples per example.

    Attributes:
        W (~chainer.Parameter): Output embedding of shape ``(len(counts),
            in_size)``; it starts NaN-filled and must be set before use.
        sample_data (:ref:`ndarray`): When not ``None``, used as the
            negative samples instead of drawing them (for tests).

    See: Ji et al., `BlackOut: Speeding up Recurrent Neural Network
    Language Models With Very Large Vocabularies
    <https://arxiv.org/abs/1511.06909>`_
    """

    sample_data = None

    def __init__(self, in_size, counts, sample_size):
        super().__init__()
        vocab_size = len(counts)
        self.sampler = walker_alias.WalkerAlias(
            numpy.array(counts, dtype=numpy.float32))
        self.sample_size = sample_size
        with self.init_scope():
            self.W = variable.Parameter(shape=(vocab_size, in_size))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.sampler.device_resident_accept(visitor)

    def forward(self, x, t):
        """Computes the loss.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input vectors
                of shape ``(n, in_size)``.
            t (:class:`~chainer.Variable` or :ref:`ndarray`): Target words,
                ``int32`` of shape ``(n,)``.

        Returns:
            ~chainer.Variable: The mean loss.
        """
        if self.sample_data is not None:
            sample_data = self.sample_data
        else:
            sample_data = self.sampler.sample((x.shape[0], self.sample_size))
        samples = variable.Variable(sample_data, requires_grad=False)
        return black_out.black_out(x, t, self.W, samples)
