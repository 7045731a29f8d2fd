import numpy

import chainer
from chainer import backend
from chainer.functions import _numerics
from chainer.functions.array import _index
from chainer import function_node
from chainer.utils import type_check


class ScatterAdd(function_node.FunctionNode):

    """Adds an array into a copy of another at indexed positions."""

    def __init__(self, slices):
        if isinstance(slices, list):
            if all(isinstance(s, int) for s in slices):
                slices = slices,
            slices = tuple(slices)
        elif not isinstance(slices, tuple):
            slices = slices,
        if chainer.is_debug():
            if sum(s is Ellipsis for s in slices) > 1:
                raise ValueError('Only one Ellipsis is allowed')
        self.slices = slices

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, _ = in_types
        n_indexed = type_check.make_variable(
            sum(s is not None for s in self.slices), 'n_indexed')
        type_check.expect(a_type.ndim >= n_indexed)

    def forward(self, inputs):
        a, b = inputs
        xp = backend.get_array_module(a)
        if xp is not numpy:
            _index.check_array_indices(a.shape, self.slices)
        y = a.copy()
        if y[self.slices].shape != b.shape:
            raise ValueError(
                'Chainer does not support automatic broadcasting '
                'of variables.')
        _numerics.add_at(y, self.slices, b)
        return y,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple(gy if i == 0 else gy[self.slices] for i in indexes)


def scatter_add(a, slices, b):
    """Adds a variable into a copy of another at indexed positions.

    The output is a copy of ``a`` where ``b`` is added to
    ``a[slices]``. Unlike ``a[slices] += b`` in NumPy, elements indexed
    several times accumulate all their values.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): The array that
            ``b`` is added into.
        slices (int, slice, Ellipsis, None, integer array-like, boolean\
        array-like or tuple of them): The index into ``a``, as for
            :func:`~chainer.functions.get_item`.
        b (:class:`~chainer.Variable` or :ref:`ndarray`): The values to
            add; it must have the shape of ``a[slices]`` (no broadcasting)
            and the dtype of ``a``.

    Returns:
        ~chainer.Variable: The variable with the values added.

    Raises:
        IndexError: If an index is out of bounds, on the GPU too (where
            CuPy alone would wrap it around).

    .. admonition:: Example

        >>> a = np.zeros((3, 2), np.float32)
        >>> b = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.scatter_add(a, [0, 0], b).array
        array([[4., 6.],
               [0., 0.],
               [0., 0.]], dtype=float32)

    """
    y, = ScatterAdd(slices).apply((a, b))
    return y
