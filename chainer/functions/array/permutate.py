import numpy

import chainer
from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer.utils import type_check


def _check_indices(indices):
    # Debug-mode check that ``indices`` is a permutation of
    # ``0, ..., len(indices) - 1``.
    indices = cuda.to_cpu(indices)
    n = len(indices)
    out_of_bounds = (indices < 0) | (indices >= n)
    if out_of_bounds.any():
        raise ValueError('Out of bounds index: {}'.format(
            indices[out_of_bounds][0]))
    counts = numpy.bincount(indices, minlength=n)
    if (counts > 1).any():
        raise ValueError('indices contains duplicate value: {}'.format(
            numpy.flatnonzero(counts > 1)[0]))


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
        if chainer.is_debug():
            _check_indices(indices)
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
            is the length of ``x`` along ``axis``. In debug mode, it is
            checked to be a permutation.
        axis (int): The axis to permute.
        inv (bool): Whether to apply the inverse permutation.

    Returns:
        ~chainer.Variable: The permuted variable.

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
