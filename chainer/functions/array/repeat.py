import numpy

from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer.functions import _numerics
from chainer.utils import type_check


class Repeat(function_node.FunctionNode):

    """Repeats each element of an array."""

    def __init__(self, repeats, axis=None):
        if isinstance(repeats, int):
            self.repeats = repeats,
        elif isinstance(repeats, tuple) and all(
                isinstance(r, int) for r in repeats):
            self.repeats = repeats
        else:
            raise TypeError('repeats must be int or tuple of ints')
        if not all(r >= 0 for r in self.repeats):
            raise ValueError('all elements in repeats must be zero or larger')
        if axis is not None and (
                not isinstance(axis, int) or isinstance(axis, bool)):
            raise TypeError('axis must be int or None')
        self.axis = axis

    check_type_forward = type_check._argument_check(('x',))

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        repeats = self.repeats
        if len(repeats) == 1:
            repeats = repeats[0]
        return xp.repeat(x, repeats, self.axis),

    def backward(self, indexes, grad_outputs):
        x = self.inputs[0]
        return RepeatGrad(
            self.repeats, self.axis, x.shape, x.dtype).apply(grad_outputs)


class RepeatGrad(function_node.FunctionNode):

    """Gradient of :class:`Repeat`: sums the copies of each element."""

    def __init__(self, repeats, axis, in_shape, in_dtype):
        self.repeats = repeats
        self.axis = axis
        self.in_shape = in_shape
        self.in_dtype = in_dtype

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        shape = self.in_shape
        if self.axis is None:
            gy = gy.reshape(-1)
            axis = 0
            n = int(numpy.prod(shape, dtype=numpy.int64))
        else:
            axis = self.axis % len(shape)
            n = shape[axis]
        if len(self.repeats) == 1:
            # ``repeats`` may hold a bool, as NumPy allows.
            r = int(self.repeats[0])
            # Each run of ``r`` copies becomes an axis to sum over.
            split = gy.shape[:axis] + (n, r) + gy.shape[axis + 1:]
            gx = gy.reshape(split).sum(axis=axis + 1)
        else:
            gx = _sum_runs(xp, gy, self.repeats, axis, n)
        return gx.reshape(shape),

    def backward(self, indexes, grad_outputs):
        return Repeat(self.repeats, self.axis).apply(grad_outputs)


def _sum_runs(xp, gy, repeats, axis, n):
    # Sums ``gy`` along ``axis`` over consecutive runs of the given
    # lengths; a run of length zero sums to zero.
    repeats = numpy.asarray(repeats, dtype=numpy.intp)
    out_shape = gy.shape[:axis] + (n,) + gy.shape[axis + 1:]
    nonempty = numpy.flatnonzero(repeats)
    if nonempty.size == 0:
        return xp.zeros(out_shape, gy.dtype)
    index = (slice(None),) * axis
    if xp is numpy:
        starts = numpy.concatenate(([0], numpy.cumsum(repeats)[:-1]))
        sums = numpy.add.reduceat(gy, starts[nonempty], axis=axis)
        if nonempty.size == n:
            return sums
        gx = numpy.zeros(out_shape, gy.dtype)
        gx[index + (nonempty,)] = sums
        return gx
    owner = cuda.to_gpu(numpy.repeat(numpy.arange(n), repeats))
    gx = xp.zeros(out_shape, gy.dtype)
    _numerics.add_at(gx, index + (owner,), gy)
    return gx


def repeat(x, repeats, axis=None):
    """Repeats each element of a variable.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        repeats (int or tuple of int): The number of copies of each
            element; a tuple gives one number per element along ``axis``
            (per element of the flattened ``x`` when ``axis`` is ``None``).
        axis (int): The axis along which elements are repeated. By
            default, ``x`` is flattened and the output is one-dimensional.

    Returns:
        ~chainer.Variable: The variable with the repeated elements.

    .. admonition:: Example

        >>> x = np.array([[0, 1], [2, 3]])
        >>> F.repeat(x, 2).array
        array([0, 0, 1, 1, 2, 2, 3, 3])
        >>> F.repeat(x, (1, 2), axis=0).array
        array([[0, 1],
               [2, 3],
               [2, 3]])

    """
    return Repeat(repeats, axis).apply((x,))[0]
