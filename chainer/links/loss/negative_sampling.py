"""Negative sampling loss layer."""

import numpy

from chainer import configuration
from chainer.functions.loss import negative_sampling
from chainer import link
from chainer.utils import argument
from chainer.utils import walker_alias
from chainer import variable


class NegativeSampling(link.Link):
    """Negative sampling loss layer, holding the output embedding of
    :func:`~chainer.functions.negative_sampling` and a sampler of negative
    examples.

    The words are sampled in proportion to ``counts ** power``.

    Args:
        in_size (int): Width of each input row.
        counts (sequence of ints): Frequency of each word.
        sample_size (int): Number of negative samples per example.
        power (float): Power applied to the counts.
        dtype: Data type of the sampling weights.

    Attributes:
        W (~chainer.Parameter): Output embedding of shape ``(len(counts),
            in_size)``, initialized to zeros.
        sampler (~chainer.utils.WalkerAlias): The sampler.
    """

    def __init__(self, in_size, counts, sample_size, power=0.75,
                 dtype=None):
        super().__init__()
        dtype = configuration.get_dtype(dtype)
        vocab_size = len(counts)
        self.sample_size = sample_size
        p = numpy.array(counts, dtype)
        numpy.power(p, dtype.type(power), p)
        self.sampler = walker_alias.WalkerAlias(p)
        with self.init_scope():
            self.W = variable.Parameter(0, (vocab_size, in_size))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.sampler.device_resident_accept(visitor)

    def forward(self, x, t, reduce='sum', **kwargs):
        """forward(self, x, t, reduce='sum', *, return_samples=False)

        Computes the loss.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input vectors
                of shape ``(n, in_size)``.
            t (:class:`~chainer.Variable` or :ref:`ndarray`): Target words,
                ``int32`` of shape ``(n,)``.
            reduce (str): ``'sum'`` or ``'no'``.
            return_samples (bool): Whether to return the samples too.

        Returns:
            ~chainer.Variable or tuple: The loss (and the samples), as
            :func:`~chainer.functions.negative_sampling`.
        """
        return_samples, = argument.parse_kwargs(
            kwargs, ('return_samples', False))
        return negative_sampling.negative_sampling(
            x, t, self.W, self.sampler.sample, self.sample_size,
            reduce=reduce, return_samples=return_samples)
