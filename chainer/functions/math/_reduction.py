"""Axis handling shared by the reductions (mean, max, min, prod, ...)."""

from chainer.utils import type_check


def normalize_axis(axis):
    """Returns ``axis`` as ``None`` or a tuple of ints.

    Raises:
        TypeError: If ``axis`` is not ``None``, an int or a tuple of ints.
        ValueError: If the tuple repeats an axis.
    """
    if axis is None:
        return None
    if isinstance(axis, int):
        return axis,
    if isinstance(axis, tuple) and all(
            isinstance(a, int) for a in axis):
        if len(set(axis)) != len(axis):
            raise ValueError('duplicate value in axis: ({})'.format(
                ', '.join(map(str, axis))))
        return axis
    raise TypeError('None, int or tuple of int are required')


def check_axis(x_type, axis):
    """Type-checks that each axis of the tuple ``axis`` exists in ``x``."""
    if axis is None:
        return
    for a in axis:
        if a >= 0:
            type_check.expect(a < x_type.ndim)
        else:
            type_check.expect(-a - 1 < x_type.ndim)


def keepdims_shape(in_shape, axis):
    """The shape of a reduction's output with the reduced axes kept."""
    if axis is None:
        return (1,) * len(in_shape)
    ndim = len(in_shape)
    reduced = [a % ndim for a in axis]
    return tuple(1 if i in reduced else d for i, d in enumerate(in_shape))
