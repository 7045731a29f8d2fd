from chainer.functions.array import reshape
from chainer.functions.math import minmax
from chainer.utils import type_check


def maxout(x, pool_size, axis=1):
    """Maxout activation.

    The ``axis`` dimension of ``x``, of length ``M * pool_size``, is split
    into ``M`` groups of ``pool_size`` consecutive entries, and the maximum
    of each group is taken.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype; usually the output of a linear or convolution
            layer, with the minibatch along the first axis.
        pool_size (int): The number of entries pooled into one output.
        axis (int): The axis to pool; its length must be a multiple of
            ``pool_size``.

    Returns:
        ~chainer.Variable: Output variable, of the shape of ``x`` except
        that the ``axis`` dimension is ``M`` instead of ``M * pool_size``.

    Raises:
        ValueError: If ``pool_size`` is not positive.
        ~chainer.utils.type_check.InvalidType: If the ``axis`` dimension is
            not a multiple of ``pool_size``.

    .. seealso:: :class:`~chainer.links.Maxout`

    .. admonition:: Example

        >>> x = np.arange(12, dtype=np.float32).reshape(2, 6)
        >>> F.maxout(x, 3).array
        array([[ 2.,  5.],
               [ 8., 11.]], dtype=float32)

    """
    if pool_size <= 0:
        raise ValueError('pool_size must be a positive integer.')
    shape = x.shape
    if axis < 0:
        axis += len(shape)
    if shape[axis] % pool_size != 0:
        raise type_check.InvalidType(
            'x.shape[axis] % pool_size == 0',
            'x.shape[axis]={}, pool_size={}'.format(shape[axis], pool_size),
            'axis dimension must be divided by pool_size')
    pooled_shape = (shape[:axis] + (shape[axis] // pool_size, pool_size)
                    + shape[axis + 1:])
    return minmax.max(reshape.reshape(x, pooled_shape), axis=axis + 1)
