"""Decorrelated batch normalization layer."""

import functools
import warnings

import numpy

from chainer import backend
from chainer import configuration
from chainer.functions.normalization import \
    decorrelated_batch_normalization as dbn
from chainer import link
from chainer import serializer as serializer_module
from chainer.utils import argument


class DecorrelatedBatchNormalization(link.Link):
    """Decorrelated batch normalization layer, holding the running
    statistics of
    :func:`~chainer.functions.decorrelated_batch_normalization`.

    The channels are split into ``groups`` groups, and each group is
    whitened (its covariance made the identity) with the statistics of the
    batch in training mode, with the running averages ``avg_mean`` and
    ``avg_projection`` in test mode. The layer has no learnt parameter.

    Args:
        size (int): Number of channels of the input.
        groups (int): Number of groups; it must divide ``size``.
        decay (float): Decay rate of the running averages.
        eps (float): Added to the eigenvalues for numerical stability.
        dtype: Data type of the running statistics.

    Attributes:
        avg_mean (:ref:`ndarray`): Running mean, of shape ``(groups, size
            // groups)`` (persistent).
        avg_projection (:ref:`ndarray`): Running whitening matrices, of
            shape ``(groups, size // groups, size // groups)``
            (persistent).
        N (int): Number of finetuning calls so far (persistent).

    Files saved by old versions, whose statistics had no group axis, are
    still loaded (their statistics are shared by the groups).

    See: Huang et al., `Decorrelated Batch Normalization
    <https://arxiv.org/abs/1804.08450>`_
    """

    def __init__(self, size, groups=16, decay=0.9, eps=2e-5,
                 dtype=numpy.float32):
        super().__init__()
        C = size // groups
        self.avg_mean = numpy.zeros((groups, C), dtype=dtype)
        self.register_persistent('avg_mean')
        avg_projection = numpy.zeros((groups, C, C), dtype=dtype)
        avg_projection[:, numpy.arange(C), numpy.arange(C)] = 1
        self.avg_projection = avg_projection
        self.register_persistent('avg_projection')
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        self.groups = groups

    def serialize(self, serializer):
        if isinstance(serializer, serializer_module.Deserializer):
            serializer = _PatchedDeserializer(serializer, {
                'avg_mean': functools.partial(
                    fix_avg_mean, groups=self.groups),
                'avg_projection': functools.partial(
                    fix_avg_projection, groups=self.groups),
            })
        super().serialize(serializer)

    def forward(self, x, **kwargs):
        """forward(self, x, finetune=False)

        Whitens the input.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, size, ...)``.
            finetune (bool): In training mode, average the statistics over
                the finetuning calls instead of decaying them.

        Returns:
            ~chainer.Variable: The whitened input.
        """
        finetune, = argument.parse_kwargs(kwargs, ('finetune', False))
        config = configuration.config
        if not config.train:
            return dbn.fixed_decorrelated_batch_normalization(
                x, self.avg_mean, self.avg_projection, groups=self.groups)
        if finetune:
            self.N += 1
            decay = 1.0 - 1.0 / self.N
        else:
            decay = self.decay
        avg_mean = self.avg_mean
        avg_projection = self.avg_projection
        if config.in_recomputing:
            if finetune:
                self.N -= 1
            avg_mean = avg_projection = None
        return dbn.decorrelated_batch_normalization(
            x, groups=self.groups, eps=self.eps, running_mean=avg_mean,
            running_projection=avg_projection, decay=decay)

    def start_finetuning(self):
        """Restarts the averaging of the finetuning calls."""
        self.N = 0


class _PatchedDeserializer(serializer_module.Deserializer):
    # Passes some loaded values through a fix before they are stored.

    def __init__(self, base, patches):
        self.base = base
        self.patches = patches

    def __repr__(self):
        return '_PatchedDeserializer({}, {})'.format(
            repr(self.base), repr(self.patches))

    def __getitem__(self, key):
        return self.base[key]

    def __call__(self, key, value):
        if key not in self.patches:
            return self.base(key, value)
        array = self.base(key, None)
        if array is None:
            # nothing read: a checking pass before the load, or a saved None
            return value
        array = self.patches[key](array)
        if value is None:
            return array
        backend.copyto(value, array)
        return value


def _warn_old_model():
    warnings.warn(
        'Found moving statistics of old DecorrelatedBatchNormalization, '
        'whose algorithm was different from the paper.')


def fix_avg_mean(avg_mean, groups):
    """Gives a running mean saved without the group axis one.

    Args:
        avg_mean (:ref:`ndarray`): The loaded running mean.
        groups (int): Number of groups of the link.

    Returns:
        :ref:`ndarray`: The running mean of shape ``(groups, C)``.
    """
    if avg_mean.ndim == 2:
        return avg_mean
    if avg_mean.ndim == 1:
        if groups != 1:
            _warn_old_model()
        return numpy.broadcast_to(avg_mean, (groups,) + avg_mean.shape)
    raise ValueError('unexpected shape of avg_mean')


def fix_avg_projection(avg_projection, groups):
    """Gives a running projection saved without the group axis one.

    Args:
        avg_projection (:ref:`ndarray`): The loaded running projection.
        groups (int): Number of groups of the link.

    Returns:
        :ref:`ndarray`: The projections of shape ``(groups, C, C)``.
    """
    if avg_projection.ndim == 3:
        return avg_projection
    if avg_projection.ndim == 2:
        if groups != 1:
            _warn_old_model()
        return numpy.broadcast_to(
            avg_projection, (groups,) + avg_projection.shape)
    raise ValueError('unexpected shape of avg_projection')
