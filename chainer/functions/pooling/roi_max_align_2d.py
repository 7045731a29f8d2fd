import numpy

from chainer import backend
from chainer.functions.pooling import _roi


class ROIMaxAlign2D(_roi.RoIAlign):

    """RoIAlign of 2-D feature maps, keeping the largest sampled point."""

    def forward(self, inputs):
        x, rois, roi_indices = self._retain(inputs)
        n, c, h, w = x.shape
        xp = backend.get_array_module(x)
        planes = x.reshape(n, c, h * w)
        shape = self._output_shape(rois, x)
        best = xp.full(shape, -numpy.inf)
        argmax = xp.full(shape, -1, numpy.int32)
        grid = self._grid(rois)
        for iy, ix, taps, valid in self._samples(grid, h, w):
            value = _roi.interpolate(planes, roi_indices, taps)
            better = valid & (value > best)
            best = xp.where(better, value, best)
            argmax = xp.where(better, iy * grid.grid_w + ix, argmax)
        self.argmax_data = argmax.astype(numpy.int32, copy=False)
        return best.astype(x.dtype),

    def backward(self, inputs, grad_outputs):
        rois, roi_indices = inputs[1:]
        gy, = grad_outputs
        xp = backend.get_array_module(gy)
        grid = self._grid(rois)
        argmax = self.argmax_data
        found = argmax >= 0
        iy, ix = xp.divmod(xp.maximum(argmax, 0), grid.grid_w)
        taps, inside = _roi.bilinear_taps(
            *grid.coordinates(iy, ix), *self._bottom_data_shape[2:])
        g = xp.where(found & inside, gy, 0.)
        scatter = _roi.Scatter(self._bottom_data_shape, xp)
        for pixel, weight in taps:
            scatter.add(roi_indices, pixel, g * weight)
        return scatter.result(gy.dtype), None, None


def roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                     sampling_ratio=None):
    """RoIAlign that keeps the largest sampled value of each bin.

    Each RoI, scaled by ``spatial_scale`` but not rounded, is split into
    ``outsize`` bins, and each output element is the maximum of the input,
    interpolated bilinearly, at a regular grid of points in its bin (or
    ``-inf`` if no point lies in the image).

    It takes the arguments of :func:`~chainer.functions.roi_average_align_2d`,
    raises the same errors and returns a variable of the same shape,
    ``(R, c, outh, outw)``.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> rois = np.array([[0, 0, 4, 4]], np.float32)
        >>> roi_indices = np.array([0], np.int32)
        >>> F.roi_max_align_2d(x, rois, roi_indices, 2, 1.0).array
        array([[[[ 7.5,  9. ],
                 [13.5, 15. ]]]], dtype=float32)

    """
    return ROIMaxAlign2D(outsize, spatial_scale, sampling_ratio)(
        x, rois, roi_indices)
