import copy

import numpy

import chainer
from chainer.functions.normalization import batch_normalization
from chainer import initializers
from chainer import link
import chainer.utils
from chainer import variable

from chainermn.functions import batch_normalization as mn_batch_normalization


class MultiNodeBatchNormalization(link.Link):
    """Batch normalization over the global batch of all ranks.

    :class:`chainer.links.BatchNormalization` normalizes each rank's batch
    with its own statistics, which are noisy when the local batch is small.
    This link averages the batch statistics (and their gradients) over the
    ranks, so each step normalizes with the statistics of the whole global
    batch. Every rank must call it at the same time.

    Args:
        size (int or tuple of ints): Shape of the channel dimensions.
        comm: ChainerMN communicator.
        decay (float): How slowly the running statistics forget, in
            ``[0, 1)``.
        eps (float): Added to the variance for stability.
        dtype: Dtype of the parameters and statistics (float32 for
            mixed16).
        use_gamma (bool): Learn a scale ``gamma``.
        use_beta (bool): Learn a shift ``beta``.
        initial_gamma: Initializer of ``gamma`` (default 1).
        initial_beta: Initializer of ``beta`` (default 0).
        communication_backend (str): ``'mpi'``, ``'nccl'`` or ``'auto'``.
    """

    def __init__(self, size, comm, decay=0.9, eps=2e-5, dtype=None,
                 use_gamma=True, use_beta=True,
                 initial_gamma=None, initial_beta=None,
                 communication_backend='auto'):
        chainer.utils.experimental(
            'chainermn.links.MultiNodeBatchNormalization')
        super().__init__()
        self._highprec_dtype = chainer.get_dtype(
            dtype, map_mixed16=numpy.float32)
        self.comm = comm
        self.avg_mean = numpy.zeros(size, dtype=self._highprec_dtype)
        self.register_persistent('avg_mean')
        self.avg_var = numpy.zeros(size, dtype=self._highprec_dtype)
        self.register_persistent('avg_var')
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        self._communication_backend = \
            mn_batch_normalization.get_communication_backend(
                comm, communication_backend)
        with self.init_scope():
            if use_gamma:
                initializer = initializers._get_initializer(
                    1 if initial_gamma is None else initial_gamma)
                initializer.dtype = self._highprec_dtype
                self.gamma = variable.Parameter(initializer, size)
            if use_beta:
                initializer = initializers._get_initializer(
                    0 if initial_beta is None else initial_beta)
                initializer.dtype = self._highprec_dtype
                self.beta = variable.Parameter(initializer, size)

    def forward(self, x, finetune=False):
        """Normalizes ``x`` with the global batch statistics (in training)
        or the moving averages (in testing).

        Args:
            x (~chainer.Variable): Input, channels on axis 1.
            finetune (bool): Accumulate the population statistics with
                decay ``1 - 1/N`` instead of ``decay``.
        """
        gamma = getattr(self, 'gamma', None)
        if gamma is None:
            gamma = variable.Variable(self.xp.ones(
                self.avg_mean.shape, dtype=self._highprec_dtype))
        beta = getattr(self, 'beta', None)
        if beta is None:
            beta = variable.Variable(self.xp.zeros(
                self.avg_mean.shape, dtype=self._highprec_dtype))
        if not chainer.config.train:
            return batch_normalization.fixed_batch_normalization(
                x, gamma, beta, variable.Variable(self.avg_mean),
                variable.Variable(self.avg_var), self.eps)
        if finetune:
            self.N += 1
            decay = 1. - 1. / self.N
        else:
            decay = self.decay
        func = batch_normalization.BatchNormalization(
            self.eps, self.avg_mean, self.avg_var, decay,
            impl_selector=mn_batch_normalization.MultiNodeBNImplSelector(
                self.comm, self._communication_backend))
        ret = func.apply((x, gamma, beta))[0]
        self.avg_mean[:] = func.running_mean
        self.avg_var[:] = func.running_var
        return ret

    def start_finetuning(self):
        """Resets the count of the population statistics (``N``)."""
        self.N = 0

    def __deepcopy__(self, memo):
        # The communicator is shared, not copied.
        comm = self.comm
        self.comm = None
        try:
            cls = type(self)
            clone = cls.__new__(cls)
            memo[id(self)] = clone
            for name, value in self.__dict__.items():
                clone.__dict__[name] = copy.deepcopy(value, memo)
        finally:
            self.comm = comm
        clone.comm = comm
        return clone
