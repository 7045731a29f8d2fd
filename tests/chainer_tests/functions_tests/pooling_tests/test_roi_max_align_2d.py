import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


def _interpolate(image, y, x):
    # Bilinear value of image (c, h, w) at (y, x), or None outside.
    h, w = image.shape[1:]
    if y < -1 or y > h or x < -1 or x > w:
        return None
    y, x = min(max(y, 0.), h - 1.), min(max(x, 0.), w - 1.)
    y0, x0 = min(int(y), h - 2), min(int(x), w - 2)
    value = numpy.zeros(image.shape[0])
    for yi, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
        for xi, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
            if wy * wx > 0:
                value += wy * wx * image[:, yi, xi]
    return value


def _reference(x, rois, roi_indices, outsize, spatial_scale,
               sampling_ratio):
    # Maximum of the interpolated samples in the image; -inf if none.
    outh, outw = outsize
    y = numpy.full((len(rois), x.shape[1]) + outsize, -numpy.inf)
    for r, roi in enumerate(rois):
        image = x[roi_indices[r]].astype(numpy.float64)
        y0, x0, y1, x1 = (float(v) * spatial_scale for v in roi)
        roi_h, roi_w = max(y1 - y0, 1.), max(x1 - x0, 1.)
        bin_h, bin_w = roi_h / outh, roi_w / outw
        grid_h = sampling_ratio[0] or int(numpy.ceil(roi_h / outh))
        grid_w = sampling_ratio[1] or int(numpy.ceil(roi_w / outw))
        for i in range(outh):
            for j in range(outw):
                for iy in range(grid_h):
                    for ix in range(grid_w):
                        value = _interpolate(
                            image, y0 + i * bin_h + (iy + .5) * bin_h / grid_h,
                            x0 + j * bin_w + (ix + .5) * bin_w / grid_w)
                        if value is not None:
                            y[r, :, i, j] = numpy.maximum(y[r, :, i, j],
                                                          value)
    return y


ROIS = numpy.array([[1, 1, 7, 6], [0.5, 2.3, 4.1, 7.7], [3, -0.5, 8, 2],
                    [2.2, 4.4, 11.8, 9.9], [5, 5, 5.2, 5.1]])
ROI_INDICES = numpy.array([0, 2, 1, 0, 1], numpy.int32)


@testing.parameterize(*testing.product({
    'outsize,spatial_scale,sampling_ratio': [
        ((3, 3), 1.0, None), ((2, 4), 0.5, 2), ((4, 3), 2.0, (1, 3)),
        ((2, 2), 0.7, (None, 2))],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestROIMaxAlign2D(testing.FunctionTestCase):

    skip_double_backward_test = True
    check_forward_options = {'atol': 1e-5, 'rtol': 1e-4}
    check_backward_options = {'atol': 5e-3, 'rtol': 5e-3}

    def setUp(self):
        self.rois = (ROIS / self.spatial_scale).astype(numpy.float32)
        ratio = self.sampling_ratio
        self.ratio_pair = ratio if isinstance(ratio, tuple) else (ratio,) * 2

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (3, 2, 12, 10))
        return x.astype(numpy.float32),

    def forward(self, inputs, device):
        return F.roi_max_align_2d(
            inputs[0], device.send(self.rois), device.send(ROI_INDICES),
            self.outsize, self.spatial_scale, self.sampling_ratio),

    def forward_expected(self, inputs):
        y = _reference(inputs[0], self.rois, ROI_INDICES, self.outsize,
                       self.spatial_scale, self.ratio_pair)
        return y.astype(numpy.float32),


def test_no_sample_in_the_image():
    x = chainer.Variable(numpy.ones((1, 1, 4, 4), numpy.float32))
    y = F.roi_max_align_2d(x, numpy.array([[9, 9, 12, 12]], numpy.float32),
                           numpy.zeros(1, numpy.int32), 2, 1.0)
    assert y.creator.label == 'ROIMaxAlign2D'
    assert numpy.isneginf(y.array).all()
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    assert (x.grad == 0).all()


def test_invalid_outsize():
    with pytest.raises(TypeError, match='outsize'):
        F.roi_max_align_2d(numpy.ones((1, 1, 4, 4), numpy.float32),
                           numpy.ones((1, 4), numpy.float32),
                           numpy.zeros(1, numpy.int32), (2, 0), 1.0)


def test_float32_only():
    with pytest.raises(type_check.InvalidType):
        F.roi_max_align_2d(numpy.ones((1, 1, 4, 4), numpy.float16),
                           numpy.ones((1, 4), numpy.float16),
                           numpy.zeros(1, numpy.int32), 2, 1.0)
