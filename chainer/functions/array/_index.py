"""Bounds checks of integer index arrays.

NumPy reads a negative index from the end of an axis and CuPy wraps any
out-of-range index around, so an op that takes indices (labels, IDs)
would give a silent number for an index that is out of its range. The ops
check them here first, and raise their own errors.
"""


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
