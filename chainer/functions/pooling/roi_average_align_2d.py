import numpy

from chainer import backend
from chainer.functions.pooling import _roi


def _get_bounds(p, limit):
    """Clamps one sample coordinate ``p`` along an axis of ``limit`` pixels.

    Returns:
        tuple: ``(None, None, None)`` when the sample lies out of the image
        (more than one pixel outside); otherwise the coordinate to
        interpolate at (clamped to the image) and the pixels ``low`` and
        ``high = low + 1`` around it.
    """
    clamped, low, high, inside = _roi.sample_bounds(
        numpy.asarray(p, numpy.float64), limit)
    if not inside:
        return None, None, None
    if clamped != p:
        # Clamped to the first or the last pixel.
        p = int(clamped)
    return p, int(low), int(high)


class ROIAverageAlign2D(_roi.RoIAlign):

    """RoIAlign of 2-D feature maps, averaging the sampled points."""

    def forward(self, inputs):
        x, rois, roi_indices = self._retain(inputs)
        n, c, h, w = x.shape
        xp = backend.get_array_module(x)
        planes = x.reshape(n, c, h * w)
        total = xp.zeros(self._output_shape(rois, x), numpy.float64)
        grid = self._grid(rois)
        count = 1
        for _, _, taps, valid in self._samples(grid, h, w):
            value = _roi.interpolate(planes, roi_indices, taps)
            total += xp.where(valid, value, 0.)
            count = grid.count()
        return (total / count).astype(x.dtype),

    def backward(self, inputs, grad_outputs):
        rois, roi_indices = inputs[1:]
        gy, = grad_outputs
        xp = backend.get_array_module(gy)
        scatter = _roi.Scatter(self._bottom_data_shape, xp)
        grid = self._grid(rois)
        for _, _, taps, valid in self._samples(
                grid, *self._bottom_data_shape[2:]):
            g = xp.where(valid, gy / grid.count(), 0.)
            for pixel, weight in taps:
                scatter.add(roi_indices, pixel, g * weight)
        return scatter.result(gy.dtype), None, None


def roi_average_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                         sampling_ratio=None):
    """Spatial region of interest (RoI) average align (Mask R-CNN).

    Each RoI, scaled by ``spatial_scale`` but not rounded, is split into
    ``outsize`` bins, and each output element is the mean of the input,
    interpolated bilinearly, at a regular grid of points in its bin.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
            ``(n, c, h, w)``, float32.
        rois (:class:`~chainer.Variable` or :ref:`ndarray`): RoIs of shape
            ``(R, 4)``, rows ``(y_min, x_min, y_max, x_max)``, float32.
        roi_indices (:class:`~chainer.Variable` or :ref:`ndarray`): Image
            index (int32) of each RoI, shape ``(R,)``.
        outsize (int or pair of ints): Number of bins ``(outh, outw)``.
        spatial_scale (float): Scale from RoI to ``x`` coordinates.
        sampling_ratio (None, int or pair of ints): Sampling points per bin
            along ``(y, x)``; by default ``ceil`` of the bin size.

    Returns:
        ~chainer.Variable: Output of shape ``(R, c, outh, outw)``.

    Raises:
        TypeError: If ``outsize`` or ``sampling_ratio`` is not positive
            integers, or ``spatial_scale`` not a positive number.

    See `Mask R-CNN <https://arxiv.org/abs/1703.06870>`_.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> rois = np.array([[0, 0, 4, 4]], np.float32)
        >>> roi_indices = np.array([0], np.int32)
        >>> F.roi_average_align_2d(x, rois, roi_indices, 2, 1.0).array
        array([[[[ 5.  ,  6.75],
                 [12.  , 13.75]]]], dtype=float32)

    """
    return ROIAverageAlign2D(outsize, spatial_scale, sampling_ratio)(
        x, rois, roi_indices)
