import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


def _space2depth(x, r):
    # out[n, (p * r + q) * c + k, i, j] = x[n, k, i * r + p, j * r + q]
    n, c, hr, wr = x.shape
    y = numpy.empty((n, c * r * r, hr // r, wr // r), x.dtype)
    for p in range(r):
        for q in range(r):
            y[:, (p * r + q) * c:(p * r + q + 1) * c] = x[:, :, p::r, q::r]
    return y


@testing.parameterize(*testing.product({
    'shape_r': [((2, 3, 6, 4), 2), ((1, 1, 3, 6), 3), ((2, 3, 2, 2), 1),
                ((0, 1, 2, 4), 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSpace2Depth(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.r = self.shape_r
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.space2depth(x, self.r),

    def forward_expected(self, inputs):
        x, = inputs
        return _space2depth(x, self.r),


def test_class_and_inverse():
    x = numpy.random.uniform(-1, 1, (2, 3, 4, 6)).astype(numpy.float32)
    y = F.space2depth(chainer.Variable(x), 2)
    assert type(y.creator).__name__ == 'Space2Depth'
    numpy.testing.assert_array_equal(F.depth2space(y, 2).array, x)


@pytest.mark.parametrize('shape, dtype', [
    ((2, 3, 4), numpy.float32),
    ((2, 3, 3, 4), numpy.float32),
    ((2, 3, 4, 3), numpy.float32),
    ((2, 3, 4, 4), numpy.int32),
], ids=['ndim', 'height', 'width', 'dtype'])
def test_invalid(shape, dtype):
    with pytest.raises(type_check.InvalidType):
        F.space2depth(numpy.zeros(shape, dtype), 2)
