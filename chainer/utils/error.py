"""Formatting of arrays in error messages."""


def _format_array_props(arrays):
    """Formats the shapes and dtypes of arrays (or Variables) for messages.

    Args:
        arrays (list or tuple): The arrays; ``None`` entries are allowed.

    Returns:
        str: ``'shape:dtype'`` of each array, joined by commas.

    >>> _format_array_props([numpy.zeros((2, 3), numpy.float32), None])
    '(2, 3):float32, None'
    """
    assert isinstance(arrays, (list, tuple))
    return ', '.join(
        'None' if a is None else '{}:{}'.format(a.shape, a.dtype.name)
        for a in arrays)
