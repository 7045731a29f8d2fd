"""Product with an array broadcast along given axes (Caffe's scale layer).
"""

from chainer.functions.math import bias as bias_module


def scale(x, y, axis=1):
    """Element-wise product of two variables, the second broadcast along
    axes.

    ``x`` is multiplied by ``y`` along the axes of ``x`` from ``axis`` on,
    the way Caffe's scale layer broadcasts. With ::

           x : 100 x 3 x 40 x 5 x 6
           y : 3 x 40
        axis : 1

    ``y`` is broadcast as if its shape were ``1 x 3 x 40 x 1 x 1``. Note
    that ``axis`` is the axis of ``x`` at which the axes of ``y`` begin,
    unlike NumPy's ``axis`` arguments.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The array whose
            elements are multiplied.
        y (:class:`~chainer.Variable` or :ref:`ndarray`): Scaling factors,
            broadcast; its shape must equal ``x.shape[axis:axis + y.ndim]``.
        axis (int): Axis of ``x`` that lines up with the first axis of ``y``.

    Returns:
        ~chainer.Variable: The result, shaped like ``x``.

    .. admonition:: Example

        >>> x = np.ones((2, 3, 2), np.float32)
        >>> y = np.array([1., 2., 3.], np.float32)
        >>> F.scale(x, y, axis=1).array[0]
        array([[1., 1.],
               [2., 2.],
               [3., 3.]], dtype=float32)

    """
    return x * bias_module._broadcast_along(x.shape, y, axis)
