"""Initializers: callables that fill parameter arrays in place."""

import numpy

from chainer import backend
from chainer import configuration
from chainer.initializers.constant import Constant  # NOQA
from chainer.initializers.constant import Identity  # NOQA
from chainer.initializers.constant import NaN  # NOQA
from chainer.initializers.constant import One  # NOQA
from chainer.initializers.constant import Zero  # NOQA
from chainer.initializers.normal import GlorotNormal  # NOQA
from chainer.initializers.normal import HeNormal  # NOQA
from chainer.initializers.normal import LeCunNormal
from chainer.initializers.normal import Normal  # NOQA
from chainer.initializers.orthogonal import Orthogonal  # NOQA
from chainer.initializers.sampling import DownsamplingConvFilter  # NOQA
from chainer.initializers.sampling import UpsamplingDeconvFilter  # NOQA
from chainer.initializers.uniform import GlorotUniform  # NOQA
from chainer.initializers.uniform import HeUniform  # NOQA
from chainer.initializers.uniform import LeCunUniform  # NOQA
from chainer.initializers.uniform import Uniform  # NOQA


def generate_array(initializer, shape, xp, dtype=None, device=None):
    """Makes a new array and fills it with an initializer.

    Args:
        initializer: A callable that fills an array in place, with an
            optional ``dtype`` attribute.
        shape (int or tuple of int): The shape to give the new array.
        xp (module): ``numpy`` or ``cupy``; ignored when ``device`` is
            given.
        dtype: The array's dtype. Defaults to the initializer's
            ``dtype``, then to ``chainer.config.dtype``.
        device: Device specifier of the array.

    Returns:
        The initialized array.
    """
    dtype_attr = getattr(initializer, 'dtype', None)
    if dtype is not None and dtype_attr is not None \
            and numpy.dtype(dtype) != numpy.dtype(dtype_attr):
        raise ValueError(
            'dtype mismatch: {} != {}'.format(dtype, dtype_attr))
    if dtype is None:
        dtype = dtype_attr
    dtype = configuration.get_dtype(dtype)
    if device is None:
        if xp is numpy:
            device = backend.CpuDevice()
        else:
            device = backend.get_device(xp.cuda.Device())
    else:
        device = backend.get_device(device)
    with backend.using_device(device):
        array = device.xp.empty(shape, dtype=dtype)
        initializer(array)
    return array


def _get_initializer(initializer):
    """Turns a scalar, an array or ``None`` into an initializer.

    ``None`` gives :class:`LeCunNormal`, a scalar or an array gives
    :class:`Constant`, and a callable is returned unchanged.
    """
    if initializer is None:
        return LeCunNormal()
    if numpy.isscalar(initializer) or isinstance(
            initializer, (numpy.ndarray, backend.cuda.ndarray)):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError('invalid type of initializer: {}'.format(
            type(initializer)))
    return initializer


def _check_is_initializer_like(initializer):
    """Raises TypeError unless links accept ``initializer`` as initial value.

    That is ``None``, an initializer (any callable), an array or a scalar.
    """
    if not (initializer is None
            or callable(initializer)
            or isinstance(initializer,
                          (numpy.ndarray, backend.cuda.ndarray))
            or numpy.isscalar(initializer)):
        raise TypeError(
            'Initializer is of wrong type: {}. Allowed types are '
            'Initializer, ndarray and scalar.'.format(type(initializer)))
