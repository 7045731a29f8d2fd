import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'axes': [(0, 1), (0, 2), (2, 0), (-1, 1), (1, 1)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSwapaxes(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.swapaxes(x, *self.axes),

    def forward_expected(self, inputs):
        x, = inputs
        return x.swapaxes(*self.axes),


def test_class_label_and_view():
    x = numpy.zeros((2, 3), numpy.float32)
    y = F.swapaxes(chainer.Variable(x), 0, 1)
    assert type(y.creator).__name__ == 'Swapaxes'
    assert y.creator.label == 'Swapaxes'
    assert numpy.shares_memory(x, y.array)


@pytest.mark.parametrize('axes', [(0, 2), (-3, 0)], ids=str)
def test_invalid_axis(axes):
    with pytest.raises(type_check.InvalidType):
        F.swapaxes(numpy.zeros((2, 3), numpy.float32), *axes)
