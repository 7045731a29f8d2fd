"""Bounds checks of integer index arrays.

NumPy reads a negative index from the end of an axis and CuPy wraps any
out-of-range index around, so an op that takes indices (labels, IDs)
would give a silent number for an index that is out of its range. The ops
check them here first, and raise their own errors.
"""

import numpy


def first_out_of_range(index, size, ignore_label=None):
    """Returns the first entry of ``index`` out of ``[0, size)``.

    Args:
        index (:ref:`ndarray`): An integer array, of any shape.
        size (int): The number of valid positions.
        ignore_label (int or None): An entry equal to it is not checked.

    Returns:
        int or None: The first offending entry (in C order), or ``None``
        if all entries are in range (or ignored).
    """
    if index.size == 0:
        return None
    if ignore_label is None:
        if index.min() >= 0 and index.max() < size:
            return None
        bad = (index < 0) | (index >= size)
    else:
        bad = ((index < 0) | (index >= size)) & (index != ignore_label)
        if not bad.any():
            return None
    return int(index[bad].ravel()[0])


def _axes_taken(index):
    # The number of axes of the indexed array that one index entry takes.
    if index is None or index is Ellipsis or isinstance(index, bool):
        return 0
    if hasattr(index, 'dtype') and index.dtype.kind == 'b':
        return index.ndim
    return 1


def check_array_indices(shape, slices):
    """Raises IndexError for an integer array index out of its axis.

    NumPy raises it itself; CuPy wraps such an index around, so the ops
    that index with ``slices`` call this first on the GPU. Negative
    indices count from the end, as in NumPy.

    Args:
        shape (tuple of int): The shape of the indexed array.
        slices (tuple): The index entries, as in ``x[slices]``.
    """
    # A list or tuple entry is an array, as in NumPy.
    slices = [numpy.asarray(s) if isinstance(s, (list, tuple)) else s
              for s in slices]
    taken = [_axes_taken(s) for s in slices]
    axis = 0
    for s, n in zip(slices, taken):
        if s is Ellipsis:
            axis += len(shape) - sum(taken)
        elif (hasattr(s, 'dtype') and s.dtype.kind in 'iu' and s.size
                and axis < len(shape)):
            size = shape[axis]
            low, high = int(s.min()), int(s.max())
            if low < -size or high >= size:
                raise IndexError(
                    'index {} is out of bounds for axis {} with size '
                    '{}'.format(low if low < -size else high, axis, size))
        axis += n
