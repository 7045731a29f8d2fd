import numpy

from chainer import backend
from chainer import function
from chainer.utils import argument
from chainer.utils import type_check


class _Corners:

    # The four input pixels around each sampling point, on the input
    # padded with one pixel of zeros on each side.

    def __init__(self, x, grid):
        xp = backend.get_array_module(x)
        n, c, height, width = x.shape
        grid = grid.reshape(n, 2, -1)
        # Sampling points in pixels of the padded input.
        u = (grid[:, 0] + 1) * (width - 1) / 2 + 1
        v = (grid[:, 1] + 1) * (height - 1) / 2 + 1
        self.u, self.v = u, v
        self.u_clipped = u.clip(0, width + 1)
        self.v_clipped = v.clip(0, height + 1)
        self.u0 = xp.floor(self.u_clipped).astype(numpy.int32).clip(0, width)
        self.v0 = xp.floor(self.v_clipped).astype(numpy.int32).clip(0, height)
        self.u1 = self.u0 + 1
        self.v1 = self.v0 + 1
        padded_width = width + 2
        padded_size = (height + 2) * padded_width
        row0 = self.v0 * padded_width
        row1 = row0 + padded_width
        # Indices of the corners (v0, u0), (v0, u1), (v1, u0), (v1, u1)
        # in the flattened padded input, of shape (n, c, points).
        planes = (xp.arange(n * c) * padded_size).reshape(n, c, 1)
        self.indices = [planes + index[:, None, :] for index in (
            row0 + self.u0, row0 + self.u1, row1 + self.u0, row1 + self.u1)]
        self.padded_shape = (n, c, height + 2, width + 2)
        self.x_pad = xp.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)),
                            mode='constant').ravel()

    def pixels(self):
        # The values of each corner, of shape (n, c, points).
        return [self.x_pad.take(index) for index in self.indices]


class SpatialTransformerSampler(function.Function):

    """Samples input images at given points by bilinear interpolation."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'grid'))
        x_type, grid_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            grid_type.dtype == x_type.dtype,
            x_type.ndim == 4,
            grid_type.ndim == 4,
        )
        type_check.expect(
            grid_type.shape[1] == 2,
            x_type.shape[0] == grid_type.shape[0],
        )

    def forward(self, inputs):
        x, grid = inputs
        corners = _Corners(x, grid)
        u, v = corners.u_clipped, corners.v_clipped
        u0, u1, v0, v1 = corners.u0, corners.u1, corners.v0, corners.v1
        weights = [w.astype(x.dtype, copy=False)[:, None, :] for w in (
            (u1 - u) * (v1 - v), (u - u0) * (v1 - v),
            (u1 - u) * (v - v0), (u - u0) * (v - v0))]
        pixels = corners.pixels()
        y = weights[0] * pixels[0]
        for w, p in zip(weights[1:], pixels[1:]):
            y += w * p
        return y.reshape(x.shape[:2] + grid.shape[2:]),

    def backward(self, inputs, grad_outputs):
        x, grid = inputs
        gy, = grad_outputs
        xp = backend.get_array_module(x)
        n, c, height, width = x.shape
        corners = _Corners(x, grid)
        u, v = corners.u_clipped, corners.v_clipped
        u0, u1, v0, v1 = corners.u0, corners.u1, corners.v0, corners.v1
        wu0, wu1, wv0, wv1 = [
            w.astype(gy.dtype, copy=False)[:, None, :]
            for w in (u - u0, u1 - u, v - v0, v1 - v)]
        gy = gy.reshape(n, c, -1)

        # Gradient of the sampling points: the slopes of the interpolation
        # along u and v, in grid units; zero outside the padded input.
        p1, p2, p3, p4 = corners.pixels()
        gu = -wv1 * p1
        gu += wv1 * p2
        gu -= wv0 * p3
        gu += wv0 * p4
        gv = -wu1 * p1
        gv -= wu0 * p2
        gv += wu1 * p3
        gv += wu0 * p4
        gu = (gu * gy).sum(axis=1)
        gv = (gv * gy).sum(axis=1)
        u, v = corners.u, corners.v
        gu = gu / 2.0 * (width - 1) * (u > 0) * (u < width + 1)
        gv = gv / 2.0 * (height - 1) * (v > 0) * (v < height + 1)
        ggrid = xp.stack((gu, gv), axis=1).reshape(grid.shape)

        # Gradient of the input: each output gradient goes to the four
        # corners with the interpolation weights.
        gx = xp.zeros(corners.x_pad.size, numpy.float64)
        for index, w in zip(corners.indices, (
                wu1 * wv1, wu0 * wv1, wu1 * wv0, wu0 * wv0)):
            gx += xp.bincount(
                index.ravel(), (gy * w).ravel(), minlength=gx.size)
        gx = gx.astype(x.dtype, copy=False).reshape(corners.padded_shape)
        return gx[:, :, 1:-1, 1:-1], ggrid


def spatial_transformer_sampler(x, grid, **kwargs):
    """Samples input images at given points by bilinear interpolation.

    The points come from ``grid``, in normalized coordinates: ``(-1, -1)``
    is the centre of the top-left pixel of the input and ``(1, 1)`` that
    of the bottom-right pixel. The input is seen as surrounded by zeros,
    so points outside the image take zero or partial values. Usually the
    grid is made by :func:`~chainer.functions.spatial_transformer_grid`.
    See `Spatial Transformer Networks
    <https://arxiv.org/abs/1506.02025>`_.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Float input
            images of shape ``(n, c, h, w)``.
        grid (:class:`~chainer.Variable` or :ref:`ndarray`): Sampling
            points of shape ``(n, 2, out_h, out_w)`` and the dtype of
            ``x``; channel 0 holds the x coordinates and channel 1 the y
            coordinates.

    Returns:
        ~chainer.Variable: The sampled images, of shape
        ``(n, c, out_h, out_w)``.

    .. admonition:: Example

        >>> x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
        >>> grid = np.array([[[[0]], [[-1]]]], np.float32)  # x=0, y=-1
        >>> F.spatial_transformer_sampler(x, grid).array
        array([[[[0.5]]]], dtype=float32)

    """
    if kwargs:
        argument.check_unexpected_kwargs(
            kwargs, use_cudnn='The argument "use_cudnn" is not '
            'supported anymore. Use chainer.using_config(\'use_cudnn\', '
            'value) context where value can be `always`, `never`, or '
            '`auto`.')
        argument.assert_kwargs_empty(kwargs)
    return SpatialTransformerSampler()(x, grid)
