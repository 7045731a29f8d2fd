import numpy

from chainer import _kernels
from chainer import backend
from chainer import function_node
from chainer.functions.pooling import pooling_nd
from chainer import utils


def _accumulation_dtype(dtype):
    # float16 sums are accumulated in float32.
    return numpy.float32 if dtype == numpy.float16 else None


def _window_widths(dims, ksize, stride, pad, outs, dtype):
    # Number of non-padding elements of each window, shape outs.
    width = numpy.ones((), dtype)
    for d, k, s, p, o in zip(dims, ksize, stride, pad, outs):
        starts = numpy.arange(o) * s - p
        ends = numpy.minimum(starts + k, d)
        w = (ends - numpy.maximum(starts, 0)).astype(dtype)
        width = numpy.multiply.outer(width, w)
    return width


def _divisor_array(divisor, outs, dtype):
    # One divisor per output position, as the compiled kernels take it.
    return numpy.ascontiguousarray(
        numpy.broadcast_to(numpy.asarray(divisor, dtype), outs))


def average_windows(x, ksize, stride, pad, outs, divisor):
    """Sum of each zero-padded window of ``x`` divided by ``divisor``."""
    if len(ksize) <= 3:
        y = _kernels.call((x,), _kernels.FLOATS, lambda k: (
            k.average_pooling_forward(
                _kernels.plain(x), _divisor_array(divisor, outs, x.dtype),
                outs, ksize, stride, pad)))
        if y is not None:
            return y
    total = pooling_nd.window_sum(x, ksize, stride, pad, outs,
                                  _accumulation_dtype(x.dtype))
    y = total / divisor
    return y.astype(x.dtype, copy=False)


def spread_windows(gy, ksize, stride, pad, x_shape, divisor,
                   channels_last=False):
    """Gradient of :func:`average_windows`: ``gy / divisor`` added to every
    element of its window, for an input of shape ``x_shape``; from the
    kernels, channels-last if ``channels_last`` (the input's layout)."""
    if len(ksize) <= 3:
        gx = _kernels.call((gy,), _kernels.FLOATS, lambda k: (
            k.average_pooling_backward(
                _kernels.to_layout(gy, channels_last),
                _divisor_array(divisor, gy.shape[2:], gy.dtype), x_shape,
                ksize, stride, pad)))
        if gx is not None:
            return gx
    g = (gy / divisor).astype(gy.dtype, copy=False)
    return pooling_nd.spread(g, ksize, stride, pad, x_shape[2:])


class AveragePoolingND(pooling_nd._PoolingND):

    """Mean over the windows of N-dimensional feature maps."""

    def __init__(self, ndim, ksize, stride=None, pad=0, cover_all=False,
                 pad_value=0):
        if not (pad_value is None or pad_value == 0):
            raise ValueError(
                'pad_value must be either 0 or None, not {}.'.format(
                    pad_value))
        if cover_all is True:
            raise ValueError('`cover_all` mode is not supported yet.')
        super().__init__(ndim, ksize, stride=stride, pad=pad,
                         cover_all=cover_all)
        self.pad_value = pad_value

    def forward(self, inputs):
        x, = inputs
        dims = x.shape[2:]
        outs = pooling_nd.out_sizes(dims, self.ksize, self.stride, self.pad,
                                    False)
        if self.pad_value is None:
            width = _window_widths(dims, self.ksize, self.stride, self.pad,
                                   outs, x.dtype)
            self.width = backend.get_array_module(x).asarray(width)
        else:
            self.width = int(utils.size_of_shape(self.ksize))
        self._in_shape = x.shape
        self._in_dtype = x.dtype
        self._in_channels_last = _kernels.strictly_channels_last(x)
        y = average_windows(x, self.ksize, self.stride, self.pad, outs,
                            self.width)
        return y,

    def backward(self, indexes, grad_outputs):
        return AveragePoolingNDGrad(self).apply(grad_outputs)


class AveragePoolingNDGrad(function_node.FunctionNode):

    """Gradient of :class:`AveragePoolingND`."""

    def __init__(self, apoolnd):
        self.func = apoolnd

    def forward(self, inputs):
        gy, = inputs
        func = self.func
        gx = spread_windows(gy, func.ksize, func.stride, func.pad,
                            func._in_shape, func.width,
                            func._in_channels_last)
        return gx,

    def backward(self, indexes, grad_outputs):
        func = self.func
        return AveragePoolingND(
            func.ndim, func.ksize, func.stride, func.pad, cover_all=False,
            pad_value=func.pad_value).apply(grad_outputs)


def average_pooling_nd(x, ksize, stride=None, pad=0, pad_value=0):
    """N-dimensional spatial average pooling.

    Each output element is the mean of a window of the input; windows of
    size ``ksize`` start at ``-pad`` and are ``stride`` apart along each
    spatial axis. Windows never cover the input only partly at the end
    (there is no ``cover_all`` mode).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
            ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Window size; ``k`` means
            ``(k, ..., k)``.
        stride (None, int or tuple of ints): Window step; ``None`` means
            ``ksize``.
        pad (int or tuple of ints): Padding on each side of each spatial
            axis.
        pad_value (0 or None): With ``0`` (default) the padded elements
            count as zeros, so every window is divided by
            ``prod(ksize)``; with ``None`` they are left out, and each
            window is divided by its number of input elements.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c, l_1, ..., l_N)``.

    Raises:
        ValueError: If ``pad_value`` is neither 0 nor ``None``.

    .. admonition:: Example

        >>> x = np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3)
        >>> F.average_pooling_nd(x, 2, stride=1).array
        array([[[[2., 3.],
                 [5., 6.]]]], dtype=float32)
        >>> F.average_pooling_nd(x, 2, pad=1, pad_value=None).array
        array([[[[0. , 1.5],
                 [4.5, 6. ]]]], dtype=float32)

    """
    ndim = len(x.shape[2:])
    return AveragePoolingND(
        ndim, ksize, stride=stride, pad=pad, pad_value=pad_value
    ).apply((x,))[0]


def average_pooling_1d(x, ksize, stride=None, pad=0, pad_value=0):
    """One-dimensional spatial average pooling.

    :func:`average_pooling_nd` for inputs of shape ``(n, c, d)``.

    Raises:
        ValueError: If ``x`` does not have one spatial axis.
    """
    pooling_nd.check_spatial_ndim(x, 1)
    return average_pooling_nd(x, ksize, stride, pad, pad_value)


def average_pooling_3d(x, ksize, stride=None, pad=0, pad_value=0):
    """Three-dimensional spatial average pooling.

    :func:`average_pooling_nd` for inputs of shape
    ``(n, c, d_1, d_2, d_3)``.

    Raises:
        ValueError: If ``x`` does not have three spatial axes.
    """
    pooling_nd.check_spatial_ndim(x, 3)
    return average_pooling_nd(x, ksize, stride, pad, pad_value)
