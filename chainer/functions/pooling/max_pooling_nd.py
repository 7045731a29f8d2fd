import numpy

from chainer import _kernels
from chainer import function_node
from chainer.functions.pooling import pooling_nd
from chainer import utils
from chainer.utils import conv


class MaxPoolingND(pooling_nd._PoolingND):

    """Maximum over the windows of N-dimensional feature maps.

    After :meth:`forward`, ``indexes`` holds for each output the flat index
    (C order of ``ksize``) of the maximum within its window.
    """

    def forward(self, inputs):
        x, = inputs
        n, c = x.shape[:2]
        outs = pooling_nd.out_sizes(x.shape[2:], self.ksize, self.stride,
                                    self.pad, self.cover_all)
        self._in_shape = x.shape
        self._in_dtype = x.dtype
        if self.ndim <= 3:
            outputs = _kernels.call((x,), _kernels.FLOATS, lambda k: (
                k.max_pooling_forward(_kernels.plain(x), outs, self.ksize,
                                      self.stride, self.pad)))
            if outputs is not None:
                y, self.indexes = outputs
                return y,
        patches = conv._patches(x, self.ksize, self.stride, self.pad, outs,
                                (1,) * self.ndim, -numpy.inf)
        col = patches.reshape(
            (n, c, utils.size_of_shape(self.ksize)) + outs)
        y = col.max(axis=2)
        self.indexes = pooling_nd.first_max_index(col, y)
        return y,

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDGrad(self).apply(grad_outputs)


class MaxPoolingNDGrad(function_node.FunctionNode):

    """Gradient of :class:`MaxPoolingND`: routes each gradient to the max."""

    def __init__(self, func):
        self.func = func

    def forward(self, inputs):
        gy, = inputs
        func = self.func
        if func.ndim <= 3 and func.indexes.dtype == numpy.int64:
            indexes = _kernels.plain(func.indexes)
            gx = _kernels.call((gy,), _kernels.FLOATS, lambda k: (
                k.max_pooling_backward(
                    _kernels.in_layout_of(gy, indexes), indexes,
                    func._in_shape, func.ksize, func.stride, func.pad)))
            if gx is not None:
                return gx,
        gx = pooling_nd.scatter(gy, func.indexes, func.ksize, func.stride,
                                func.pad, func._in_shape[2:])
        return gx,

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDWithIndexes(self.func).apply(grad_outputs)


class MaxPoolingNDWithIndexes(function_node.FunctionNode):

    """Picks from each window the element where the max pooling found its
    maximum; the gradient of :class:`MaxPoolingNDGrad`."""

    def __init__(self, func):
        self.func = func

    def forward(self, inputs):
        x, = inputs
        func = self.func
        y = pooling_nd.gather(x, func.indexes, func.ksize, func.stride,
                              func.pad, func.indexes.shape[2:])
        return y,

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDGrad(self.func).apply(grad_outputs)


def max_pooling_nd(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """N-dimensional spatial max pooling.

    Each output element is the maximum of a window of the input; windows of
    size ``ksize`` start at ``-pad`` and are ``stride`` apart along each
    spatial axis, as the filters of
    :func:`~chainer.functions.convolution_nd`. Padded elements never win.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
            ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Window size; ``k`` means
            ``(k, ..., k)``.
        stride (None, int or tuple of ints): Window step; ``None`` means
            ``ksize``.
        pad (int or tuple of ints): Padding on each side of each spatial
            axis.
        cover_all (bool): If ``True`` (default), every input element is in
            some window, which may add one output element along an axis.
        return_indices (bool): If ``True``, also return the array of the
            flat indexes (C order of ``ksize``) of the maxima within their
            windows, as :func:`~chainer.functions.upsampling_2d` takes.

    Returns:
        ~chainer.Variable or tuple: The output of shape
        ``(n, c, l_1, ..., l_N)``; with ``return_indices``, a pair of the
        output and the index array.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> F.max_pooling_nd(x, 2).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)

    """
    ndim = len(x.shape[2:])
    func = MaxPoolingND(ndim, ksize, stride, pad, cover_all, return_indices)
    y, = func.apply((x,))
    if return_indices:
        return y, func.indexes
    return y


def max_pooling_1d(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """One-dimensional spatial max pooling.

    :func:`max_pooling_nd` for inputs of shape ``(n, c, d)``.

    Raises:
        ValueError: If ``x`` does not have one spatial axis.
    """
    pooling_nd.check_spatial_ndim(x, 1)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_2d(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """Two-dimensional spatial max pooling.

    Each output pixel is the maximum of a ``ksize`` window of the input;
    see :func:`max_pooling_nd` for the arguments.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The feature maps,
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size ``(kh, kw)``.
        stride (None, int or pair of ints): Window step; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Padding ``(ph, pw)``.
        cover_all (bool): If ``True`` (default), every input pixel is in
            some window.
        return_indices (bool): If ``True``, also return the flat index of
            each maximum within its window.

    Returns:
        ~chainer.Variable or tuple: The output of shape
        ``(n, c, out_h, out_w)``, and the indexes with ``return_indices``.

    Raises:
        ValueError: If ``x`` does not have two spatial axes.

    .. admonition:: Example

        >>> x = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)
        >>> F.max_pooling_2d(x, 2).shape
        (1, 1, 3, 3)
        >>> F.max_pooling_2d(x, 2, cover_all=False).shape
        (1, 1, 2, 2)

    """
    pooling_nd.check_spatial_ndim(x, 2)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_3d(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """Three-dimensional spatial max pooling.

    :func:`max_pooling_nd` for inputs of shape ``(n, c, d_1, d_2, d_3)``.

    Raises:
        ValueError: If ``x`` does not have three spatial axes.
    """
    pooling_nd.check_spatial_ndim(x, 3)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)
