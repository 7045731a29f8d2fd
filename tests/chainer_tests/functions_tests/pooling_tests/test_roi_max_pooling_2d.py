import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


def _integer_bins(start, size, n_bins, limit):
    stride = size / n_bins
    for i in range(n_bins):
        lo = min(max(int(numpy.floor(i * stride)) + start, 0), limit)
        hi = min(max(int(numpy.ceil((i + 1) * stride)) + start, 0), limit)
        yield i, slice(lo, hi)


def reference(x, rois, roi_indices, outsize, spatial_scale, reduce, empty):
    # Reduces the integer bins of each RoI (y_min, x_min, y_max, x_max).
    outh, outw = outsize
    n, c, h, w = x.shape
    y = numpy.full((len(rois), c, outh, outw), empty, numpy.float64)
    for r, roi in enumerate(rois):
        y0, x0, y1, x1 = (int(numpy.round(v * spatial_scale)) for v in roi)
        for i, rows in _integer_bins(y0, max(y1 - y0, 1), outh, h):
            for j, cols in _integer_bins(x0, max(x1 - x0, 1), outw, w):
                patch = x[roi_indices[r], :, rows, cols]
                if patch.size:
                    y[r, :, i, j] = reduce(patch.astype(numpy.float64),
                                           axis=(1, 2))
    return y.astype(x.dtype)


# RoIs inside a (12, 10) image, as (y_min, x_min, y_max, x_max).
ROIS = numpy.array([[1, 1, 7, 6], [0, 2, 4, 7], [3, 0, 8, 2], [2, 4, 11, 9]],
                   numpy.float64)
ROI_INDICES = numpy.array([0, 2, 1, 0], numpy.int32)


@testing.parameterize(*testing.product({
    'outsize,spatial_scale': [(3, 1.0), ((2, 4), 0.5), ((4, 3), 2.0)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestROIMaxPooling2D(testing.FunctionTestCase):

    skip_double_backward_test = True

    def setUp(self):
        self.rois = (ROIS / self.spatial_scale).astype(self.dtype)
        self.outsize_pair = (self.outsize if isinstance(self.outsize, tuple)
                             else (self.outsize,) * 2)
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        # Distinct values 1/64 apart, exact in float16.
        x = numpy.random.permutation(3 * 2 * 12 * 10).reshape(3, 2, 12, 10)
        return (x / 64.).astype(self.dtype),

    def forward(self, inputs, device):
        return F.roi_max_pooling_2d(
            inputs[0], device.send(self.rois), device.send(ROI_INDICES),
            self.outsize, self.spatial_scale),

    def forward_expected(self, inputs):
        return reference(inputs[0], self.rois, ROI_INDICES,
                         self.outsize_pair, self.spatial_scale, numpy.max,
                         -numpy.inf),


def test_empty_bins_and_label():
    x = chainer.Variable(numpy.arange(16, dtype=numpy.float32).reshape(
        1, 1, 4, 4))
    rois = numpy.array([[3, 3, 3, 3], [9, 9, 12, 12]], numpy.float32)
    indices = numpy.zeros(2, numpy.int32)
    y = F.roi_max_pooling_2d(x, rois, indices, 2, 1.0)
    assert y.creator.label == 'ROIMaxPooling2D'
    numpy.testing.assert_array_equal(y.array, reference(
        x.array, rois, indices, (2, 2), 1.0, numpy.max, -numpy.inf))
    assert numpy.isinf(y.array[1]).all()
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    # The four bins of the one-pixel RoI all hold pixel (3, 3).
    assert x.grad[0, 0, 3, 3] == 4 and x.grad.sum() == 4


@pytest.mark.parametrize('outsize, spatial_scale, match', [
    (0, 1.0, 'outsize'), ((2, 1.5), 1.0, 'outsize'),
    (2, -1.0, 'spatial_scale'), (2, 'a', 'spatial_scale')])
def test_invalid_arguments(outsize, spatial_scale, match):
    with pytest.raises(TypeError, match=match):
        F.roi_max_pooling_2d(numpy.ones((1, 1, 4, 4), numpy.float32),
                             numpy.ones((1, 4), numpy.float32),
                             numpy.zeros(1, numpy.int32), outsize,
                             spatial_scale)


@pytest.mark.parametrize('rois, indices', [
    (numpy.ones((1, 5), numpy.float32), numpy.zeros(1, numpy.int32)),
    (numpy.ones((1, 4), numpy.float32), numpy.zeros(1, numpy.int64)),
    (numpy.ones((1, 4), numpy.float32), numpy.zeros(2, numpy.int32)),
    (numpy.ones((1, 4), numpy.float64), numpy.zeros(1, numpy.int32)),
], ids=['roi_shape', 'index_dtype', 'index_count', 'roi_dtype'])
def test_invalid_types(rois, indices):
    with pytest.raises(type_check.InvalidType):
        F.roi_max_pooling_2d(numpy.ones((1, 1, 4, 4), numpy.float32), rois,
                             indices, 2, 1.0)
