"""Batch renormalization layer."""

from chainer import configuration
from chainer.functions.normalization import batch_normalization
from chainer.functions.normalization import batch_renormalization
from chainer.links.normalization.batch_normalization import \
    BatchNormalization


class BatchRenormalization(BatchNormalization):
    """Batch renormalization layer, holding the parameters and the
    running statistics of :func:`~chainer.functions.batch_renormalization`.

    In training mode the batch statistics are corrected towards the
    running ones by factors clipped by ``rmax`` and ``dmax``, and the
    running statistics are updated as in :class:`BatchNormalization`; in
    test mode the running statistics are used.

    Args:
        size (int or tuple of ints): Shape of the statistics.
        rmax (float): Upper bound of the scale correction ``r``.
        dmax (float): Bound of the shift correction ``d``.
        decay (float): Decay rate of the running averages.
        eps (float): Added to the variance for numerical stability.
        dtype: Data type of the parameters and statistics.
        use_gamma (bool): Whether to learn the scale ``gamma``.
        use_beta (bool): Whether to learn the shift ``beta``.
        initial_gamma: Initializer of ``gamma``; ``None`` means ones.
        initial_beta: Initializer of ``beta``; ``None`` means zeros.
        initial_avg_mean: Initializer of ``avg_mean``; ``None`` means
            zeros.
        initial_avg_var: Initializer of ``avg_var``; ``None`` means ones.

    See: Ioffe, `Batch Renormalization: Towards Reducing Minibatch
    Dependence in Batch-Normalized Models
    <https://arxiv.org/abs/1702.03275>`_
    """

    def __init__(self, size, rmax=1, dmax=0, decay=0.9, eps=2e-5,
                 dtype=None, use_gamma=True, use_beta=True,
                 initial_gamma=None, initial_beta=None,
                 initial_avg_mean=None, initial_avg_var=None):
        super().__init__(
            size, decay, eps, dtype, use_gamma, use_beta, initial_gamma,
            initial_beta, initial_avg_mean=initial_avg_mean,
            initial_avg_var=initial_avg_var)
        self.rmax = rmax
        self.dmax = dmax
        self.r = None
        self.d = None

    def forward(self, x, finetune=False):
        """Normalizes the input.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input.
            finetune (bool): In training mode, average the statistics over
                the finetuning calls instead of decaying them.

        Returns:
            ~chainer.Variable: The normalized, scaled and shifted input.
        """
        gamma = self.gamma
        if gamma is None:
            gamma = self._constant_param(1).astype(x.dtype, copy=False)
        beta = self.beta
        if beta is None:
            beta = self._constant_param(0).astype(x.dtype, copy=False)
        config = configuration.config
        if not config.train:
            return batch_normalization.fixed_batch_normalization(
                x, gamma, beta, self.avg_mean, self.avg_var, self.eps)
        if finetune:
            self.N += 1
            decay = 1.0 - 1.0 / self.N
        else:
            decay = self.decay
        avg_mean = self.avg_mean
        avg_var = self.avg_var
        update_statistics = True
        if config.in_recomputing:
            # Recompute with the statistics the first pass saw.
            if finetune:
                self.N -= 1
            avg_mean = self._prev_avg_mean
            avg_var = self._prev_avg_var
            update_statistics = False
        elif config._will_recompute:
            self._prev_avg_mean = avg_mean.copy()
            self._prev_avg_var = avg_var.copy()
        return batch_renormalization.batch_renormalization(
            x, gamma, beta, self.rmax, self.dmax, self.eps, avg_mean,
            avg_var, decay, update_statistics=update_statistics)
