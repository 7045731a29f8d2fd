import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'axis_start': [(0, 0), (0, 2), (0, 3), (2, 0), (1, 1), (1, 2), (-1, 0),
                   (2, -3), (-3, -1)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestRollaxis(testing.FunctionTestCase):

    def setUp(self):
        self.axis, self.start = self.axis_start
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.rollaxis(x, self.axis, self.start),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.rollaxis(x, self.axis, self.start),


def test_class_and_default_start():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    y = F.rollaxis(chainer.Variable(x), 2)
    assert type(y.creator).__name__ == 'Rollaxis'
    assert y.shape == (4, 2, 3)
    assert numpy.shares_memory(x, y.array)


@pytest.mark.parametrize('axis, start', [(3, 0), (-4, 0), (0, 4), (0, -4)],
                         ids=str)
def test_invalid_axis(axis, start):
    with pytest.raises(type_check.InvalidType):
        F.rollaxis(numpy.zeros((2, 3, 4), numpy.float32), axis, start)


@pytest.mark.parametrize('axis, start', [(1.0, 0), (0, None)], ids=str)
def test_axis_type(axis, start):
    with pytest.raises(TypeError):
        F.rollaxis(numpy.zeros((2, 3), numpy.float32), axis, start)
