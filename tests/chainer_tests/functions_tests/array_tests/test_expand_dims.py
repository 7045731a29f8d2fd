import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape_axis': [((3, 2), 0), ((3, 2), 1), ((3, 2), 2), ((3, 2), -1),
                   ((3, 2), -3), ((), 0), ((0, 2), 1)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestExpandDims(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.expand_dims(x, self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.expand_dims(x, self.axis),


def test_class_and_view():
    x = numpy.zeros((2, 3), numpy.float32)
    y = F.expand_dims(chainer.Variable(x), numpy.int64(1))
    assert type(y.creator).__name__ == 'ExpandDims'
    assert y.shape == (2, 1, 3)
    assert numpy.shares_memory(x, y.array)


@pytest.mark.parametrize('axis', [3, -4])
def test_invalid_axis(axis):
    with pytest.raises(type_check.InvalidType):
        F.expand_dims(numpy.zeros((2, 3), numpy.float32), axis)
