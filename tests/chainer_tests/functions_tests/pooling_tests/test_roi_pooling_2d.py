import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.pooling import roi_pooling_2d
from chainer import testing
from chainer.utils import type_check


def _reference(x, rois, outh, outw, spatial_scale):
    # Max over the integer bins of each RoI (both ends included); 0 if empty.
    n, c, h, w = x.shape
    y = numpy.zeros((len(rois), c, outh, outw), x.dtype)
    for r, (index, x0, y0, x1, y1) in enumerate(rois):
        x0, y0, x1, y1 = (int(numpy.round(v * spatial_scale))
                          for v in (x0, y0, x1, y1))
        bin_h = max(y1 - y0 + 1, 1) / outh
        bin_w = max(x1 - x0 + 1, 1) / outw
        for i in range(outh):
            top = min(max(int(numpy.floor(i * bin_h)) + y0, 0), h)
            bottom = min(max(int(numpy.ceil((i + 1) * bin_h)) + y0, 0), h)
            for j in range(outw):
                left = min(max(int(numpy.floor(j * bin_w)) + x0, 0), w)
                right = min(max(int(numpy.ceil((j + 1) * bin_w)) + x0, 0), w)
                if top < bottom and left < right:
                    y[r, :, i, j] = x[int(index), :, top:bottom,
                                      left:right].max(axis=(1, 2))
    return y


@testing.parameterize(*testing.product({
    'outsize,spatial_scale': [((3, 3), 1.0), ((2, 4), 0.5), ((4, 3), 2.0)],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestROIPooling2D(testing.FunctionTestCase):

    skip_double_backward_test = True

    def setUp(self):
        # RoIs inside the image, as (index, x_min, y_min, x_max, y_max).
        corners = numpy.array([[0, 1, 1, 6, 7], [2, 2, 0, 7, 4],
                               [1, 0, 3, 2, 8], [0, 4, 2, 9, 11]],
                              numpy.float64)
        corners[:, 1:] /= self.spatial_scale
        self.rois = corners.astype(self.dtype)

    def generate_inputs(self):
        x = numpy.random.permutation(3 * 2 * 12 * 10).reshape(3, 2, 12, 10)
        return (x / 16.).astype(self.dtype),

    def forward(self, inputs, device):
        return F.roi_pooling_2d(inputs[0], device.send(self.rois),
                                *self.outsize, self.spatial_scale),

    def forward_expected(self, inputs):
        return _reference(inputs[0], self.rois, *self.outsize,
                          self.spatial_scale),


def test_empty_bins_and_node_class():
    x = chainer.Variable(numpy.arange(16, dtype=numpy.float32).reshape(
        1, 1, 4, 4))
    rois = numpy.array([[0, 3, 3, 3, 3], [0, 9, 9, 12, 12]], numpy.float32)
    y = F.roi_pooling_2d(x, rois, 2, 2, 1.0)
    assert type(y.creator) is roi_pooling_2d.ROIPooling2D
    numpy.testing.assert_array_equal(y.array, _reference(
        x.array, rois, 2, 2, 1.0))
    F.sum(y).backward()
    assert x.grad[0, 0, 3, 3] == 4 and x.grad.sum() == 4


def test_invalid_rois():
    with pytest.raises(type_check.InvalidType):
        F.roi_pooling_2d(numpy.ones((1, 1, 4, 4), numpy.float32),
                         numpy.ones((1, 4), numpy.float32), 2, 2, 1.0)


@pytest.mark.parametrize('args,expected', [
    ((0, 2.5, 10, 1), (slice(1, 4), 3)),
    ((3, 2.5, 10, 1), (slice(8, 10), 2)),
    ((3, 2.5, 8, 1), (slice(8, 8), 0)),
    ((0, 1.3, 10, -3), (slice(0, 0), 0)),
    ((1, 0.7, 10, 11), (slice(10, 10), 0)),
])
def test_roi_pooling_slice(args, expected):
    # Bin ``size`` of a RoI starting at ``roi_offset``, bins ``stride``
    # pixels long, clipped to ``max_size`` pixels.
    assert roi_pooling_2d._roi_pooling_slice(*args) == expected
