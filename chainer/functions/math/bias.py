"""Sum with an array broadcast along given axes (Caffe's bias layer)."""

from chainer import configuration
from chainer.functions.array import broadcast
from chainer.functions.array import reshape


def _broadcast_along(x_shape, y, axis):
    # y, reshaped to line up with x_shape from ``axis`` on and broadcast
    # to it.
    y_shape = y.shape
    if configuration.config.debug:
        assert x_shape[axis:axis + len(y_shape)] == y_shape
    y1_shape = ((1,) * axis + tuple(y_shape) +
                (1,) * (len(x_shape) - axis - len(y_shape)))
    return broadcast.broadcast_to(reshape.reshape(y, y1_shape), x_shape)


def bias(x, y, axis=1):
    """Element-wise sum of two variables, the second broadcast along axes.

    ``y`` is added to ``x`` along the axes of ``x`` from ``axis`` on, the
    way Caffe's bias layer broadcasts. With ::

           x : 100 x 3 x 40 x 5 x 6
           y : 3 x 40
        axis : 1

    ``y`` is broadcast as if its shape were ``1 x 3 x 40 x 1 x 1``. Note
    that ``axis`` is the axis of ``x`` at which the axes of ``y`` begin,
    unlike NumPy's ``axis`` arguments.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable to
            which ``y`` is added.
        y (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable
            added, broadcast; its shape must equal
            ``x.shape[axis:axis + y.ndim]``.
        axis (int): Axis of ``x`` that lines up with the first axis of ``y``.

    Returns:
        ~chainer.Variable: The result, shaped like ``x``.

    .. admonition:: Example

        >>> x = np.zeros((2, 3, 2), np.float32)
        >>> y = np.array([1., 2., 3.], np.float32)
        >>> F.bias(x, y, axis=1).array[0]
        array([[1., 1.],
               [2., 2.],
               [3., 3.]], dtype=float32)

    """
    return x + _broadcast_along(x.shape, y, axis)
