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

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The feature maps,
            ``(n, c, h, w)``.
        rois (:class:`~chainer.Variable` or :ref:`ndarray`): RoIs of shape
            ``(R, 4)``, rows ``(y_min, x_min, y_max, x_max)``, of the dtype
            of ``x``.
        roi_indices (:class:`~chainer.Variable` or :ref:`ndarray`): Image
            index (int32) of each RoI, shape ``(R,)``.
        outsize (int or pair of ints): Number of bins ``(outh, outw)``.
        spatial_scale (float): Scale from RoI to ``x`` coordinates.

    Returns:
        ~chainer.Variable: Output of shape ``(R, c, outh, outw)``.

    Raises:
        TypeError: If ``outsize`` is not positive integers or
            ``spatial_scale`` not a positive number.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> rois = np.array([[0, 0, 4, 4]], np.float32)
        >>> roi_indices = np.array([0], np.int32)
        >>> F.roi_average_pooling_2d(x, rois, roi_indices, 2, 1.0).array
        array([[[[ 2.5,  4.5],
                 [10.5, 12.5]]]], dtype=float32)

    """
    return ROIAveragePooling2D(outsize, spatial_scale)(x, rois, roi_indices)
