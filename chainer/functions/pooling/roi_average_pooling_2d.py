from chainer.functions.pooling import _roi


class ROIAveragePooling2D(_roi.RoIFunction):

    """Pools each region of interest of 2-D feature maps by its mean."""

    def forward(self, inputs):
        x, rois, roi_indices = self._retain(inputs)
        ys, xs = self._bins(rois, *x.shape[2:])
        return _roi.bin_mean(x, roi_indices, ys, xs),

    def backward(self, inputs, grad_outputs):
        rois, roi_indices = inputs[1:]
        gy, = grad_outputs
        ys, xs = self._bins(rois, *self._bottom_data_shape[2:])
        gx = _roi.bin_mean_grad(self._bottom_data_shape, gy.dtype,
                                roi_indices, ys, xs, gy)
        return gx, None, None


def roi_average_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Pools each region of interest (RoI) by averaging.

    Each RoI, scaled by ``spatial_scale`` and rounded to pixels, is split
    into ``outsize`` bins, and each output element is the mean of its bin
    over one channel of the image ``roi_indices`` names; empty bins give 0.

    It takes the arguments of :func:`~chainer.functions.roi_max_pooling_2d`
    and raises the same errors.

    Returns:
        ~chainer.Variable: Output of shape ``(R, c, outh, outw)``.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> rois = np.array([[0, 0, 4, 4]], np.float32)
        >>> roi_indices = np.array([0], np.int32)
        >>> F.roi_average_pooling_2d(x, rois, roi_indices, 2, 1.0).array
        array([[[[ 2.5,  4.5],
                 [10.5, 12.5]]]], dtype=float32)

    """
    return ROIAveragePooling2D(outsize, spatial_scale)(x, rois, roi_indices)
