"""Formatting of arrays in error messages."""


def _format_array_props(arrays):
    """Returns ``'shape:dtype'`` of each array, joined by commas.

    Args:
        arrays (list or tuple): The arrays to describe.

    Returns:
        str: The description.
    """
    assert isinstance(arrays, (list, tuple))
    return ', '.join(
        '{}:{}'.format(arr.shape, arr.dtype.name) for arr in arrays)
