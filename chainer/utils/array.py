"""Deprecated array helpers kept for code written against Chainer 7."""

import warnings

from chainer import backend
from chainer import utils


def as_vec(x):
    """Returns ``x`` flattened (deprecated: use ``x.ravel()``)."""
    warnings.warn(
        'chainer.utils.array.as_vec is deprecated. Please refer to '
        'numpy.ravel or other array backend functions to flatten ndarrays.',
        DeprecationWarning)
    if x.ndim == 1:
        return x
    return x.ravel()


def as_mat(x):
    """Returns ``x`` as a matrix of ``len(x)`` rows (deprecated)."""
    warnings.warn(
        'chainer.utils.array.as_mat is deprecated. Please refer to '
        'numpy.reshape or other array backend functions to reshape '
        'ndarrays.', DeprecationWarning)
    if x.ndim == 2:
        return x
    return x.reshape(len(x), -1)


def empty_like(x):
    """Returns an uninitialized array of the shape and dtype of ``x``."""
    return backend.get_array_module(x).empty_like(x)


size_of_shape = utils.size_of_shape
sum_to = utils.sum_to
