import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.pooling import roi_average_align_2d
from chainer import testing
from chainer.utils import type_check


def interpolate(image, y, x):
    """Bilinear value of image (c, h, w) at (y, x), or None outside."""
    h, w = image.shape[1:]
    if y < -1 or y > h or x < -1 or x > w:
        return None
    y, x = min(max(y, 0.), h - 1.), min(max(x, 0.), w - 1.)
    y0, x0 = min(int(y), h - 2) if h > 1 else 0, \
        min(int(x), w - 2) if w > 1 else 0
    value = numpy.zeros(image.shape[0])
    for yi, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
        for xi, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
            if wy * wx > 0 and yi < h and xi < w:
                value += wy * wx * image[:, yi, xi]
    return value


def sample_points(roi, outsize, spatial_scale, sampling_ratio):
    """Yields (i, j, grid size, [(y, x), ...]) for each bin."""
    outh, outw = outsize
    y0, x0, y1, x1 = (float(v) * spatial_scale for v in roi)
    roi_h, roi_w = max(y1 - y0, 1.), max(x1 - x0, 1.)
    bin_h, bin_w = roi_h / outh, roi_w / outw
    grid_h = sampling_ratio[0] or int(numpy.ceil(roi_h / outh))
    grid_w = sampling_ratio[1] or int(numpy.ceil(roi_w / outw))
    for i in range(outh):
        for j in range(outw):
            points = [(y0 + i * bin_h + (iy + .5) * bin_h / grid_h,
                       x0 + j * bin_w + (ix + .5) * bin_w / grid_w)
                      for iy in range(grid_h) for ix in range(grid_w)]
            yield i, j, grid_h * grid_w, points


def _reference(x, rois, roi_indices, outsize, spatial_scale,
               sampling_ratio):
    # Mean of the interpolated samples; samples outside count as zeros.
    y = numpy.zeros((len(rois), x.shape[1]) + outsize)
    for r, roi in enumerate(rois):
        image = x[roi_indices[r]].astype(numpy.float64)
        for i, j, count, points in sample_points(roi, outsize, spatial_scale,
                                                 sampling_ratio):
            for py, px in points:
                value = interpolate(image, py, px)
                if value is not None:
                    y[r, :, i, j] += value / count
    return y


ROIS = numpy.array([[1, 1, 7, 6], [0.5, 2.3, 4.1, 7.7], [3, -1.5, 8, 2],
                    [2.2, 4.4, 11.8, 9.9], [-3, 8, 2, 14], [5, 5, 5.2, 5.1]])
ROI_INDICES = numpy.array([0, 2, 1, 0, 2, 1], numpy.int32)


@testing.parameterize(*testing.product({
    'outsize,spatial_scale,sampling_ratio': [
        ((3, 3), 1.0, None), ((2, 4), 0.5, 2), ((4, 3), 2.0, (1, 3)),
        ((2, 2), 0.7, (None, 2))],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestROIAverageAlign2D(testing.FunctionTestCase):

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
        return F.roi_average_align_2d(
            inputs[0], device.send(self.rois), device.send(ROI_INDICES),
            self.outsize, self.spatial_scale, self.sampling_ratio),

    def forward_expected(self, inputs):
        y = _reference(inputs[0], self.rois, ROI_INDICES, self.outsize,
                       self.spatial_scale, self.ratio_pair)
        return y.astype(numpy.float32),


def test_label():
    y = F.roi_average_align_2d(
        chainer.Variable(numpy.ones((1, 1, 4, 4), numpy.float32)),
        numpy.array([[0, 0, 4, 4]], numpy.float32),
        numpy.zeros(1, numpy.int32), 2, 1.0)
    assert y.creator.label == 'ROIAverageAlign2D'


@pytest.mark.parametrize('sampling_ratio', [0, 1.5, (2, 0)])
def test_invalid_sampling_ratio(sampling_ratio):
    with pytest.raises(TypeError, match='sampling_ratio'):
        F.roi_average_align_2d(numpy.ones((1, 1, 4, 4), numpy.float32),
                               numpy.ones((1, 4), numpy.float32),
                               numpy.zeros(1, numpy.int32), 2, 1.0,
                               sampling_ratio)


def test_float32_only():
    with pytest.raises(type_check.InvalidType):
        F.roi_average_align_2d(numpy.ones((1, 1, 4, 4)),
                               numpy.ones((1, 4)),
                               numpy.zeros(1, numpy.int32), 2, 1.0)


@pytest.mark.parametrize('p,limit,expected', [
    (-1.5, 5, (None, None, None)),
    (-1, 5, (0, -1, 0)),
    (-0.5, 5, (0, -1, 0)),
    (0.3, 5, (0.3, 0, 1)),
    (4.2, 5, (4, 4, 5)),
    (5, 5, (4, 4, 5)),
    (5.01, 5, (None, None, None)),
])
def test_get_bounds(p, limit, expected):
    # The coordinate of one sample, clamped, and the pixels around it.
    assert roi_average_align_2d._get_bounds(p, limit) == expected
