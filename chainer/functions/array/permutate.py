import numpy

import chainer
from chainer import backend
from chainer.backends import cuda
from chainer.functions.array import _index
from chainer import function_node
from chainer.utils import type_check


def _check_permutation(indices, size, range_error):
    # Checks that ``indices`` holds each of ``0, ..., size - 1`` at most
    # once: an entry out of range raises ``range_error``, a duplicate
    # ValueError.
    bad = _index.first_out_of_range(indices, size)
    if bad is not None:
        raise range_error('Out of bounds index: {}'.format(bad))
    counts = numpy.bincount(indices, minlength=size)
    if (counts > 1).any():
        raise ValueError('indices contains duplicate value: {}'.format(
            numpy.flatnonzero(counts > 1)[0]))


def _check_indices(indices, size):
    # Checks that ``indices`` is a permutation of the ``size`` positions
    # of the axis. Debug mode first checks that it is a permutation of its
    # own length, raising ValueError as Chainer's debug mode does.
    indices = cuda.to_cpu(indices)
    if chainer.is_debug():
        _check_permutation(indices, len(indices), ValueError)
    _check_permutation(indices, size, IndexError)
    if len(indices) != size:
        raise ValueError(
            'indices has length {} but the axis has length {}'.format(
                len(indices), size))


def _inverse_indices(indices):
    xp = backend.get_array_module(indices)
    inverse = xp.empty_like(indices)
    inverse[indices] = xp.arange(len(indices), dtype=indices.dtype)
    return inverse


class Permutate(function_node.FunctionNode):

    """Permutes an array along an axis by a given permutation."""

    def __init__(self, indices, axis, inv):
        self.indices = indices
        self.axis = axis
        self.inv = inv

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        indices = self.indices
        _check_indices(indices, x.shape[self.axis])
        if self.inv:
            indices = _inverse_indices(indices)
        return xp.take(x, indices, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        return Permutate(self.indices, self.axis, not self.inv).apply(
            grad_outputs)


def permutate(x, indices, axis=0, inv=False):
    """Permutes a variable along an axis.

    With ``inv=False``, the output ``y`` is ``x`` reordered along ``axis``
    so that ``y[..., i, ...] = x[..., indices[i], ...]``. With
    ``inv=True``, the inverse permutation is applied:
    ``y[..., indices[i], ...] = x[..., i, ...]``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        indices (:ref:`ndarray` or :class:`~chainer.Variable` of int):
            A one-dimensional permutation of ``0, ..., n - 1``, where ``n``
            is the length of ``x`` along ``axis``.
        axis (int): The axis to permute.
        inv (bool): Whether to apply the inverse permutation.

    Returns:
        ~chainer.Variable: The permuted variable.

    Raises:
        IndexError: If an index is out of ``[0, n)``.
        ValueError: If ``indices`` has a duplicate or is not of length
            ``n``; in debug mode, also if it is not a permutation of its
            own length.

    .. admonition:: Example

        >>> x = np.arange(6).reshape(3, 2)
        >>> indices = np.array([2, 0, 1], np.int32)
        >>> F.permutate(x, indices).array
        array([[4, 5],
               [0, 1],
               [2, 3]])
        >>> F.permutate(x, indices, inv=True).array
        array([[2, 3],
               [4, 5],
               [0, 1]])

    """
    if indices.dtype.kind != 'i' or indices.ndim != 1:
        raise ValueError('indices should be a one-dimensional int array')
    if isinstance(indices, chainer.Variable):
        indices = indices.array
    y, = Permutate(indices, axis, inv).apply((x,))
    return y
