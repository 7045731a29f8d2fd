import numpy

from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer.functions import _numerics
from chainer.utils import type_check


def _source_positions(out_size, in_size, mode, align_corners):
    # For each output position along one axis: the input positions of
    # the two neighbours and the weight of the second one.
    if mode == 'bilinear':
        if align_corners:
            pos = numpy.linspace(0, in_size - 1, num=out_size)
        else:
            pos = (numpy.arange(out_size) + 0.5) * (in_size / out_size) - 0.5
            pos = numpy.maximum(pos, 0)
        weight, index = numpy.modf(pos)
    else:
        pos = numpy.floor(numpy.arange(out_size) * (in_size / out_size))
        index = numpy.minimum(pos, in_size - 1)
        weight = None
    index = index.astype(numpy.intp)
    return index, numpy.minimum(index + 1, in_size - 1), weight


class _Interpolation:

    # Bilinear (or nearest) interpolation, separated into one linear map
    # along the height and one along the width.

    def __init__(self, xp, in_size, out_size, mode, align_corners, dtype):
        self.axes = []
        for axis, n_in, n_out in zip((2, 3), in_size, out_size):
            index0, index1, weight = _source_positions(
                n_out, n_in, mode, align_corners)
            shape = (-1, 1) if axis == 2 else (-1,)
            if weight is None:
                weights = None
            else:
                weight = weight.astype(dtype).reshape(shape)
                weights = (1 - weight, weight)
            if xp is not numpy:
                index0, index1 = cuda.to_gpu(index0), cuda.to_gpu(index1)
                if weights is not None:
                    weights = tuple(cuda.to_gpu(w) for w in weights)
            self.axes.append((axis, n_in, index0, index1, weights))

    def apply(self, x):
        for axis, _, index0, index1, weights in self.axes:
            if weights is None:
                x = x.take(index0, axis)
            else:
                x = (x.take(index0, axis) * weights[0]
                     + x.take(index1, axis) * weights[1])
        return x

    def transpose(self, gy):
        xp = backend.get_array_module(gy)
        for axis, n_in, index0, index1, weights in reversed(self.axes):
            shape = list(gy.shape)
            shape[axis] = n_in
            gx = xp.zeros(shape, gy.dtype)
            if weights is None:
                _scatter_add(gx, gy, index0, axis)
            else:
                _scatter_add(gx, gy * weights[0], index0, axis)
                _scatter_add(gx, gy * weights[1], index1, axis)
            gy = gx
        return gy


def _scatter_add(out, values, index, axis):
    # ``out[..., index[k], ...] += values[..., k, ...]`` along ``axis``,
    # summing the values that go to the same place; ``index`` is sorted.
    prefix = (slice(None),) * axis
    if len(index) == 0:
        return
    if isinstance(out, numpy.ndarray):
        starts = numpy.flatnonzero(
            numpy.concatenate(([True], index[1:] != index[:-1])))
        out[prefix + (index[starts],)] += numpy.add.reduceat(
            values, starts, axis=axis)
    else:
        _numerics.add_at(out, prefix + (index,), values)


def compute_indices_and_weights(out_size, in_size, mode, align_corners, xp):
    """Returns where each output row and column is interpolated from.

    Args:
        out_size (tuple of int): The output height and width.
        in_size (tuple of int): The input height and width.
        mode (str): ``'bilinear'`` or ``'nearest'``.
        align_corners (bool): As in :func:`resize_images`.
        xp: The array module of the results.

    Returns:
        tuple: ``(v, u, vw, uw)``, float64 arrays: the first source row of
        each output row and the weight of the row after it, and the same for
        the columns (weights are zero for nearest-neighbour interpolation).
    """
    _check_mode(mode)
    results = []
    for n_out, n_in in zip(out_size, in_size):
        index, _, weight = _source_positions(n_out, n_in, mode, align_corners)
        if weight is None:
            weight = numpy.zeros(n_out)
        results.append((index.astype(numpy.float64), weight))
    (v, vw), (u, uw) = results
    if xp is not numpy:
        v, u, vw, uw = [cuda.to_gpu(a) for a in (v, u, vw, uw)]
    return v, u, vw, uw


def _corners(v, u, vw, uw, H, W):
    # The four source pixels of each output pixel and their weights.
    xp = backend.get_array_module(v)
    v1 = xp.minimum(v + 1, H - 1)
    u1 = xp.minimum(u + 1, W - 1)
    return ((v, u, (1 - vw) * (1 - uw)), (v, u1, (1 - vw) * uw),
            (v1, u, vw * (1 - uw)), (v1, u1, vw * uw))


def _interpolate_bilinear(x, v, u, vw, uw):
    # ``v, u, vw, uw`` are integer indices and weights of the output's
    # shape ``(out_H, out_W)``.
    H, W = x.shape[2:]
    y = None
    for rows, cols, weight in _corners(v, u, vw, uw, H, W):
        term = x[:, :, rows, cols] * weight
        y = term if y is None else y + term
    return y.astype(x.dtype, copy=False)


def _interpolate_grad_bilinear(gy, v, u, vw, uw, H, W):
    xp = backend.get_array_module(gy)
    gx = xp.zeros(gy.shape[:2] + (H, W), gy.dtype)
    everything = (slice(None), slice(None))
    for rows, cols, weight in _corners(v, u, vw, uw, H, W):
        _numerics.add_at(gx, everything + (rows, cols),
                         (gy * weight).astype(gy.dtype))
    return gx


# The names Chainer 7.8 gives the interpolation of each device.
interpolate_bilinear_cpu = _interpolate_bilinear
interpolate_bilinear_gpu = _interpolate_bilinear
interpolate_grad_bilinear_cpu = _interpolate_grad_bilinear
interpolate_grad_bilinear_gpu = _interpolate_grad_bilinear


def _check_mode(mode):
    assert mode in ('bilinear', 'nearest')


class ResizeImages(function_node.FunctionNode):

    """Resizes images by bilinear or nearest-neighbour interpolation."""

    def __init__(self, output_shape, mode, align_corners):
        self.out_H, self.out_W = output_shape
        _check_mode(mode)
        self.mode = mode
        self.align_corners = align_corners

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype == numpy.float32, x_type.ndim == 4)

    def forward(self, inputs):
        x, = inputs
        interpolation = _Interpolation(
            backend.get_array_module(x), x.shape[2:],
            (self.out_H, self.out_W), self.mode, self.align_corners, x.dtype)
        return interpolation.apply(x),

    def backward(self, indexes, grad_outputs):
        return ResizeImagesGrad(
            self.inputs[0].shape, (self.out_H, self.out_W), self.mode,
            self.align_corners).apply(grad_outputs)


class ResizeImagesGrad(function_node.FunctionNode):

    """Gradient of :class:`ResizeImages`: spreads each output gradient
    back over the input pixels it was interpolated from."""

    def __init__(self, input_shape, output_shape, mode, align_corners):
        self.input_shape = input_shape
        self.out_H, self.out_W = output_shape
        _check_mode(mode)
        self.mode = mode
        self.align_corners = align_corners

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('gy',))
        gy_type, = in_types
        type_check.expect(gy_type.dtype == numpy.float32, gy_type.ndim == 4)

    def forward(self, inputs):
        gy, = inputs
        interpolation = _Interpolation(
            backend.get_array_module(gy), self.input_shape[2:],
            (self.out_H, self.out_W), self.mode, self.align_corners,
            gy.dtype)
        return interpolation.transpose(gy),

    def backward(self, indexes, grad_outputs):
        return ResizeImages(
            (self.out_H, self.out_W), self.mode, self.align_corners,
        ).apply(grad_outputs)


def resize_images(x, output_shape, *, mode='bilinear', align_corners=True):
    """Resizes images by interpolation.

    The pixels of the output are interpolated from the input: bilinearly
    from the four nearest input pixels (``mode='bilinear'``), or copied
    from one (``mode='nearest'``).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Float32 images of
            shape ``(n, c, h, w)``.
        output_shape (tuple of int): The output height and width
            ``(out_h, out_w)``.
        mode (str): ``'bilinear'`` or ``'nearest'``.
        align_corners (bool): For bilinear interpolation: if ``True``, the
            corner pixels of the input and the output are aligned, the
            output pixels spread evenly between them; if ``False``, pixels
            are seen as squares whose centres are placed by scaling, and
            positions beyond the first pixel centre are clamped to it.
            It does not affect nearest-neighbour interpolation, where
            output pixel ``i`` copies input pixel ``floor(i * h / out_h)``.

    Returns:
        ~chainer.Variable: The resized images, of shape
        ``(n, c, out_h, out_w)``.

    .. admonition:: Example

        >>> x = np.array([[[[0, 1], [2, 3]]]], np.float32)
        >>> F.resize_images(x, (3, 3)).array
        array([[[[0. , 0.5, 1. ],
                 [1. , 1.5, 2. ],
                 [2. , 2.5, 3. ]]]], dtype=float32)
        >>> F.resize_images(x, (4, 4), mode='nearest').array[0, 0]
        array([[0., 0., 1., 1.],
               [0., 0., 1., 1.],
               [2., 2., 3., 3.],
               [2., 2., 3., 3.]], dtype=float32)

    """
    return ResizeImages(output_shape, mode, align_corners).apply((x,))[0]
