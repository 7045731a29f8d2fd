import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


def _depth2space(x, r):
    # out[n, k, i * r + p, j * r + q] = x[n, (p * r + q) * c + k, i, j]
    n, cr2, h, w = x.shape
    c = cr2 // (r * r)
    y = numpy.empty((n, c, h * r, w * r), x.dtype)
    for p in range(r):
        for q in range(r):
            y[:, :, p::r, q::r] = x[:, (p * r + q) * c:(p * r + q + 1) * c]
    return y


@testing.parameterize(*testing.product({
    'shape_r': [((2, 12, 3, 2), 2), ((1, 9, 2, 1), 3), ((2, 3, 2, 2), 1),
                ((0, 4, 1, 2), 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDepth2Space(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.r = self.shape_r
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.depth2space(x, self.r),

    def forward_expected(self, inputs):
        x, = inputs
        return _depth2space(x, self.r),


def test_class_and_inverse():
    x = numpy.random.uniform(-1, 1, (2, 8, 3, 4)).astype(numpy.float32)
    y = F.depth2space(chainer.Variable(x), 2)
    assert type(y.creator).__name__ == 'Depth2Space'
    numpy.testing.assert_array_equal(F.space2depth(y, 2).array, x)


@pytest.mark.parametrize('shape, dtype', [
    ((2, 8, 3), numpy.float32),
    ((2, 6, 3, 3), numpy.float32),
    ((2, 8, 3, 3), numpy.int32),
], ids=['ndim', 'channels', 'dtype'])
def test_invalid(shape, dtype):
    with pytest.raises(type_check.InvalidType):
        F.depth2space(numpy.zeros(shape, dtype), 2)
