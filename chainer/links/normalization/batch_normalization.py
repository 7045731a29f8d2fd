"""Batch normalization layer."""

import numpy

from chainer import backend
from chainer import configuration
from chainer.functions.normalization import batch_normalization
from chainer import initializers
from chainer import link
from chainer.utils import argument
from chainer import variable


class BatchNormalization(link.Link):
    """Batch normalization layer, holding the scale, the shift and the
    running statistics of :func:`~chainer.functions.batch_normalization`.

    In training mode (``chainer.config.train``) the input is normalized by
    the statistics of the batch, and the running averages ``avg_mean`` and
    ``avg_var`` are updated with rate ``1 - decay``. In test mode the
    running averages are used instead (see
    :func:`~chainer.functions.fixed_batch_normalization`).

    With ``finetune=True`` in a training call, the running averages become
    the plain averages over the calls since :meth:`start_finetuning`: the
    rate of the ``N``-th such call is ``1 / N``.

    Args:
        size (int, tuple of ints or None): Shape of the statistics (the
            non-aggregated axes of the input); ``None`` to infer it at the
            first call from ``axis``.
        decay (float): Decay rate of the running averages.
        eps (float): Added to the variance for numerical stability.
        dtype: Data type of the parameters and statistics; ``mixed16``
            means float32 here.
        use_gamma (bool): Whether to learn the scale ``gamma``.
        use_beta (bool): Whether to learn the shift ``beta``.
        initial_gamma: Initializer of ``gamma``; ``None`` means ones.
        initial_beta: Initializer of ``beta``; ``None`` means zeros.
        axis (int, tuple of ints or None): Axes of aggregation; ``None``
            means the batch axis and the axes after the statistics'.
            Required when ``size`` is ``None``.
        initial_avg_mean: Initializer of ``avg_mean``; ``None`` means
            zeros.
        initial_avg_var: Initializer of ``avg_var``; ``None`` means ones.

    Attributes:
        gamma (~chainer.Parameter): Scale, or ``None``.
        beta (~chainer.Parameter): Shift, or ``None``.
        avg_mean (:ref:`ndarray`): Running mean (persistent).
        avg_var (:ref:`ndarray`): Running variance (persistent).
        N (int): Number of finetuning calls so far (persistent).
        decay (float): Decay rate of the running averages.
        eps (float): Epsilon of the variance.

    .. admonition:: Example

        >>> bn = L.BatchNormalization(3)
        >>> x = np.arange(12, dtype=np.float32).reshape(4, 3)
        >>> y = bn(x)
        >>> np.round(bn.avg_mean, 3)
        array([0.45, 0.55, 0.65], dtype=float32)
    """

    gamma = None
    beta = None

    def __init__(self, size=None, decay=0.9, eps=2e-5, dtype=None,
                 use_gamma=True, use_beta=True, initial_gamma=None,
                 initial_beta=None, axis=None, initial_avg_mean=None,
                 initial_avg_var=None):
        super().__init__()
        if size is None and axis is None:
            raise RuntimeError('size or axis is required')
        self._initial_avg_mean = initial_avg_mean
        self._initial_avg_var = initial_avg_var
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        if isinstance(axis, int):
            axis = (axis,)
        self.axis = axis
        self._highprec_dtype = configuration.get_dtype(
            dtype, map_mixed16=numpy.float32)
        with self.init_scope():
            if use_gamma:
                self.gamma = self._parameter(initial_gamma, 1)
            if use_beta:
                self.beta = self._parameter(initial_beta, 0)
        if size is None:
            self.avg_mean = None
            self.avg_var = None
        else:
            self._initialize_params(size)
        self.register_persistent('avg_mean')
        self.register_persistent('avg_var')

    def _parameter(self, initial, default):
        if initial is None:
            initial = default
        initializer = initializers._get_initializer(initial)
        initializer.dtype = self._highprec_dtype
        return variable.Parameter(initializer)

    def _initialize_params(self, shape):
        self.avg_mean = self._init_array(self._initial_avg_mean, 0, shape)
        self._initial_avg_mean = None
        self.avg_var = self._init_array(self._initial_avg_var, 1, shape)
        self._initial_avg_var = None
        if self.gamma is not None:
            self.gamma.initialize(shape)
        if self.beta is not None:
            self.beta.initialize(shape)

    def _init_array(self, initial, default, shape):
        if initial is None:
            initial = default
        return initializers.generate_array(
            initializers._get_initializer(initial), shape, self.xp,
            dtype=self._highprec_dtype, device=self.device)

    def _constant_param(self, value):
        # Stands for gamma or beta when the link does not learn it.
        with backend.using_device(self.device):
            return self.xp.full(
                self.avg_mean.shape, value, dtype=self._highprec_dtype)

    @property
    def printable_specs(self):
        if self.avg_mean is None:
            size, dtype = None, self._highprec_dtype
        else:
            size, dtype = self.avg_mean.shape[0], self.avg_mean.dtype
        yield 'size', size
        yield 'decay', self.decay
        yield 'eps', self.eps
        yield 'dtype', dtype
        yield 'use_gamma', self.gamma is not None
        yield 'use_beta', self.beta is not None

    def forward(self, x, **kwargs):
        """forward(self, x, finetune=False)

        Normalizes the input.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input.
            finetune (bool): In training mode, average the statistics over
                the finetuning calls instead of decaying them.

        Returns:
            ~chainer.Variable: The normalized, scaled and shifted input.
        """
        finetune, = argument.parse_kwargs(
            kwargs, ('finetune', False),
            test='test argument is not supported anymore. '
                 'Use chainer.using_config')
        if self.avg_mean is None:
            self._initialize_params(tuple(
                d for i, d in enumerate(x.shape) if i not in self.axis))
        gamma = self.gamma
        if gamma is None:
            gamma = self._constant_param(1)
        beta = self.beta
        if beta is None:
            beta = self._constant_param(0)
        config = configuration.config
        if not config.train:
            return batch_normalization.fixed_batch_normalization(
                x, gamma, beta, self.avg_mean, self.avg_var, self.eps,
                axis=self.axis)
        if finetune:
            self.N += 1
            decay = 1.0 - 1.0 / self.N
        else:
            decay = self.decay
        avg_mean = self.avg_mean
        avg_var = self.avg_var
        if config.in_recomputing:
            # The statistics were updated by the first forward pass.
            if finetune:
                self.N -= 1
            avg_mean = avg_var = None
        return batch_normalization.batch_normalization(
            x, gamma, beta, eps=self.eps, running_mean=avg_mean,
            running_var=avg_var, decay=decay, axis=self.axis)

    def start_finetuning(self):
        """Restarts the averaging of the finetuning calls."""
        self.N = 0
