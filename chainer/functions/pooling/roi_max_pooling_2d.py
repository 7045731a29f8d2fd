from chainer.functions.pooling import _roi


class ROIMaxPooling2D(_roi.RoIFunction):

    """Pools each region of interest of 2-D feature maps by its maximum."""

    def forward(self, inputs):
        x, rois, roi_indices = self._retain(inputs)
        ys, xs = self._bins(rois, *x.shape[2:])
        y, self.argmax_data = _roi.bin_max(x, roi_indices, ys, xs)
        return y,

    def backward(self, inputs, grad_outputs):
        roi_indices = inputs[2]
        gy, = grad_outputs
        gx = _roi.scatter_add(self._bottom_data_shape, gy.dtype, roi_indices,
                              self.argmax_data, gy)
        return gx, None, None


def roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Pools each region of interest (RoI) by its maximum.

    Each RoI, scaled by ``spatial_scale`` and rounded to pixels, is split
    into ``outsize`` bins, and each output element is the maximum of its
    bin over one channel of the image ``roi_indices`` names; empty bins
    give ``-inf``.

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

    See `Fast R-CNN <https://arxiv.org/abs/1504.08083>`_.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> rois = np.array([[0, 0, 4, 4]], np.float32)
        >>> roi_indices = np.array([0], np.int32)
        >>> F.roi_max_pooling_2d(x, rois, roi_indices, 2, 1.0).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)

    """
    return ROIMaxPooling2D(outsize, spatial_scale)(x, rois, roi_indices)
