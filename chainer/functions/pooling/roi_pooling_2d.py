import numpy

from chainer import function_node
from chainer.functions.pooling import _roi
from chainer.utils import type_check


def _bins(rois, spatial_scale, outh, outw, height, width):
    # rois: (batch_index, x_min, y_min, x_max, y_max) rows.
    batch = rois[:, 0].astype(numpy.int64)
    ys, xs = _roi.roi_bins(rois[:, [2, 1, 4, 3]], spatial_scale, outh, outw,
                           height, width, extra=1)
    return batch, ys, xs


def _roi_pooling_slice(size, stride, max_size, roi_offset):
    """The pixels of one bin of a RoI along one axis.

    Args:
        size (int): The index of the bin.
        stride (float): The length of a bin, in pixels.
        max_size (int): The size of the image along the axis.
        roi_offset (int): The first pixel of the RoI.

    Returns:
        tuple: The slice of the bin's pixels, clipped to the image, and its
        length.
    """
    lo, hi = _roi.bin_bounds(numpy.asarray(size), stride, roi_offset,
                             max_size)
    start, end = int(lo), int(hi)
    return slice(start, end), end - start


class ROIPooling2D(function_node.FunctionNode):

    """RoI max pooling over a set of 2-D planes (Fast R-CNN)."""

    def __init__(self, outh, outw, spatial_scale):
        self.outh, self.outw = outh, outw
        self.spatial_scale = spatial_scale

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'rois'))
        x_type, roi_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
            x_type.dtype == roi_type.dtype,
            roi_type.ndim == 2,
        )
        type_check.expect(roi_type.shape[1] == 5)

    def forward(self, inputs):
        self.retain_inputs((1,))
        x, rois = inputs
        self._bottom_data_shape = x.shape
        batch, ys, xs = _bins(rois, self.spatial_scale, self.outh,
                              self.outw, *x.shape[2:])
        y, self.argmax_data = _roi.bin_max(x, batch, ys, xs)
        y[self.argmax_data < 0] = 0
        return y,

    def backward(self, indexes, grad_outputs):
        rois, = self.get_retained_inputs()
        gx, = ROIPooling2DGrad(
            self.outh, self.outw, self.spatial_scale,
            self._bottom_data_shape, self.argmax_data).apply(
                (rois, grad_outputs[0]))
        return gx, None


class ROIPooling2DGrad(function_node.FunctionNode):

    """Gradient of :class:`ROIPooling2D`: each output gradient goes to the
    pixel that held the maximum of its bin."""

    def __init__(self, outh, outw, spatial_scale, bottom_data_shape,
                 argmax_data):
        self.outh, self.outw = outh, outw
        self.spatial_scale = spatial_scale
        self._bottom_data_shape = bottom_data_shape
        self.argmax_data = argmax_data

    def forward(self, inputs):
        rois, gy = inputs
        batch = rois[:, 0].astype(numpy.int64)
        gx = _roi.scatter_add(self._bottom_data_shape, gy.dtype, batch,
                              self.argmax_data, gy)
        return gx,

    def backward(self, indexes, grad_outputs):
        # Chainer 7.8 has no double backward here either.
        raise NotImplementedError


def roi_pooling_2d(x, rois, outh, outw, spatial_scale):
    """Spatial region of interest (RoI) max pooling (Fast R-CNN).

    Each RoI, scaled by ``spatial_scale`` and rounded to pixels (both ends
    included), is split into ``outh x outw`` bins, and each output element
    is the maximum of its bin over one channel of the RoI's image; empty
    bins give 0.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The feature maps,
            ``(n, c, h, w)``.
        rois (:class:`~chainer.Variable` or :ref:`ndarray`): RoIs of shape
            ``(R, 5)``, rows ``(batch_index, x_min, y_min, x_max, y_max)``,
            of the dtype of ``x``.
        outh (int): Number of bins along y.
        outw (int): Number of bins along x.
        spatial_scale (float): Scale from RoI to ``x`` coordinates.

    Returns:
        ~chainer.Variable: Output of shape ``(R, c, outh, outw)``.

    See `Fast R-CNN <https://arxiv.org/abs/1504.08083>`_.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> rois = np.array([[0, 0, 0, 3, 3]], np.float32)
        >>> F.roi_pooling_2d(x, rois, 2, 2, 1.0).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)

    """
    return ROIPooling2D(outh, outw, spatial_scale).apply((x, rois))[0]
