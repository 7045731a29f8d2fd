"""Base class of the initializers, callables that fill an array in place."""


class Initializer:
    """Fills an array with initial values.

    Args:
        dtype: The dtype of the arrays this initializer fills; ``None``
            means the default of ``chainer.config.dtype``.

    Attributes:
        dtype: The dtype given at construction.
    """

    def __init__(self, dtype=None):
        self.dtype = dtype

    def __call__(self, array):
        """Fills ``array`` in place.

        Args:
            array: A NumPy or CuPy array.
        """
        raise NotImplementedError()


def get_fans(shape):
    """Returns the fan-in and fan-out of a weight of the given shape.

    Args:
        shape (tuple of int): The weight shape: ``(out, in, *kernel)``.

    Returns:
        tuple: ``(fan_in, fan_out)``.
    """
    if not isinstance(shape, tuple):
        raise ValueError(
            'shape must be tuple. Actual type: {}'.format(type(shape)))
    if len(shape) < 2:
        raise ValueError(
            'shape must be of length >= 2. Actual shape: {}'.format(shape))
    receptive_field_size = 1
    for dim in shape[2:]:
        receptive_field_size *= dim
    return shape[1] * receptive_field_size, shape[0] * receptive_field_size
