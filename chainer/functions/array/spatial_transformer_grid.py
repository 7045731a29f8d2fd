from chainer import backend
from chainer import function
from chainer.utils import argument
from chainer.utils import type_check


def _target_coordinates(xp, dtype, height, width):
    # Homogeneous coordinates (x, y, 1) of the target points, in [-1, 1],
    # as a matrix of shape (3, height * width).
    ys, xs = xp.meshgrid(
        xp.linspace(-1, 1, height, dtype=dtype),
        xp.linspace(-1, 1, width, dtype=dtype),
        indexing='ij', copy=False)
    ones = xp.ones((height, width), dtype)
    return xp.stack((xs, ys, ones)).reshape(3, height * width)


class SpatialTransformerGrid(function.Function):

    """Maps a regular grid of target points by affine transformations."""

    def __init__(self, output_shape):
        self.output_shape = output_shape

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('theta',))
        theta_type, = in_types
        type_check.expect(
            theta_type.dtype.kind == 'f',
            theta_type.ndim == 3,
        )
        type_check.expect(
            theta_type.shape[1] == 2,
            theta_type.shape[2] == 3,
        )

    def forward(self, inputs):
        self.retain_inputs(())
        theta, = inputs
        xp = backend.get_array_module(theta)
        height, width = self.output_shape
        coords = _target_coordinates(xp, theta.dtype, height, width)
        grid = xp.matmul(theta, coords)
        return grid.reshape(len(theta), 2, height, width),

    def backward(self, inputs, grad_outputs):
        ggrid, = grad_outputs
        xp = backend.get_array_module(ggrid)
        height, width = self.output_shape
        coords = _target_coordinates(xp, ggrid.dtype, height, width)
        ggrid = ggrid.reshape(len(ggrid), 2, height * width)
        return xp.matmul(ggrid, coords.T),


def spatial_transformer_grid(theta, output_shape, **kwargs):
    """Computes the sampling grid of a spatial transformer.

    Target points on a regular ``output_shape`` grid, with normalized
    coordinates ``(x, y)`` in ``[-1, 1]``, are mapped by affine
    transformations to source points:
    ``(x_s, y_s) = theta[n] @ (x, y, 1)``. The result is the ``grid``
    argument of :func:`~chainer.functions.spatial_transformer_sampler`.
    See `Spatial Transformer Networks
    <https://arxiv.org/abs/1506.02025>`_.

    Args:
        theta (:class:`~chainer.Variable` or :ref:`ndarray`): Float affine
            transformations of shape ``(n, 2, 3)``.
        output_shape (tuple of int): The height and width ``(h, w)`` of
            the grid.

    Returns:
        ~chainer.Variable: The source points, of shape ``(n, 2, h, w)``;
        channel 0 holds the x coordinates and channel 1 the y
        coordinates.

    .. admonition:: Example

        >>> theta = np.array([[[1, 0, 0], [0, 1, 0]]], np.float32)
        >>> grid = F.spatial_transformer_grid(theta, (2, 3))
        >>> grid.array[0, 0]
        array([[-1.,  0.,  1.],
               [-1.,  0.,  1.]], dtype=float32)

    """
    if kwargs:
        argument.check_unexpected_kwargs(
            kwargs, use_cudnn='The argument "use_cudnn" is not '
            'supported anymore. Use chainer.using_config(\'use_cudnn\', '
            'value) context where value can be `always`, `never`, or '
            '`auto`.')
        argument.assert_kwargs_empty(kwargs)
    return SpatialTransformerGrid(output_shape)(theta)
