import numpy

import chainer
from chainer import functions as F
from chainer import testing


def _integer_bins(start, size, n_bins, limit):
    stride = size / n_bins
    for i in range(n_bins):
        lo = min(max(int(numpy.floor(i * stride)) + start, 0), limit)
        hi = min(max(int(numpy.ceil((i + 1) * stride)) + start, 0), limit)
        yield i, slice(lo, hi)


def _reference(x, rois, roi_indices, outsize, spatial_scale):
    # Mean over the integer bins of each RoI; 0 for empty bins.
    outh, outw = outsize
    n, c, h, w = x.shape
    y = numpy.zeros((len(rois), c, outh, outw))
    for r, roi in enumerate(rois):
        y0, x0, y1, x1 = (int(numpy.round(v * spatial_scale)) for v in roi)
        for i, rows in _integer_bins(y0, max(y1 - y0, 1), outh, h):
            for j, cols in _integer_bins(x0, max(x1 - x0, 1), outw, w):
                patch = x[roi_indices[r], :, rows, cols]
                if patch.size:
                    y[r, :, i, j] = patch.mean(axis=(1, 2))
    return y


@testing.parameterize(*testing.product({
    'outsize,spatial_scale': [((3, 3), 1.0), ((2, 4), 0.5), ((4, 3), 2.0)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestROIAveragePooling2D(testing.FunctionTestCase):

    skip_double_backward_test = True

    def setUp(self):
        rois = numpy.array([[1, 1, 7, 6], [0, 2, 4, 7], [3, 0, 8, 2],
                            [2, 4, 11, 9], [-3, 8, 2, 14], [5, 5, 5, 5]])
        self.rois = (rois / self.spatial_scale).astype(self.dtype)
        self.roi_indices = numpy.array([0, 2, 1, 0, 2, 1], numpy.int32)
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (3, 2, 12, 10))
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.roi_average_pooling_2d(
            inputs[0], device.send(self.rois), device.send(self.roi_indices),
            self.outsize, self.spatial_scale),

    def forward_expected(self, inputs):
        y = _reference(inputs[0], self.rois, self.roi_indices, self.outsize,
                       self.spatial_scale)
        return y.astype(self.dtype),


def test_label_and_gradient_of_one_bin():
    x = chainer.Variable(numpy.zeros((1, 1, 4, 4), numpy.float32))
    y = F.roi_average_pooling_2d(
        x, numpy.array([[1, 0, 3, 4]], numpy.float32),
        numpy.zeros(1, numpy.int32), 1, 1.0)
    assert y.creator.label == 'ROIAveragePooling2D'
    y.grad = numpy.full((1, 1, 1, 1), 8., numpy.float32)
    y.backward()
    expected = numpy.zeros((4, 4))
    expected[1:3] = 1
    numpy.testing.assert_array_equal(x.grad[0, 0], expected)
