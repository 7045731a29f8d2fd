from chainer.functions.array import reshape


def flatten(x):
    """Flattens a variable into one dimension.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.

    Returns:
        ~chainer.Variable: A variable of shape ``(x.size,)`` holding the
        elements of ``x`` in C order (a view when ``x`` is contiguous).

    .. admonition:: Example

        >>> x = np.array([[1, 2], [3, 4]])
        >>> F.flatten(x).array
        array([1, 2, 3, 4])

    """
    return reshape.reshape(x, (x.size,))
