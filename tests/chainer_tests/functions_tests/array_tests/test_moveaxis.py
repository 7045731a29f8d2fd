import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'source_destination': [
        (0, 0), (0, 2), (-1, 0), (1, -1), ((0, 1), (2, 0)),
        ((0, -1), (-1, 0)), ((2, 0, 1), (0, 1, 2)), ((), ()),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMoveaxis(testing.FunctionTestCase):

    def setUp(self):
        self.source, self.destination = self.source_destination
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.moveaxis(x, self.source, self.destination),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.moveaxis(x, self.source, self.destination),


def test_class_and_view():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    y = F.moveaxis(chainer.Variable(x), 0, -1)
    assert type(y.creator).__name__ == 'Moveaxis'
    assert y.shape == (3, 4, 2)
    assert numpy.shares_memory(x, y.array)


@pytest.mark.parametrize('source, destination', [
    (3, 0), (0, -4), ((0, 1), (0, 3)),
], ids=str)
def test_axis_out_of_range(source, destination):
    with pytest.raises(type_check.InvalidType):
        F.moveaxis(numpy.zeros((2, 3, 4), numpy.float32), source, destination)


@pytest.mark.parametrize('source, destination', [
    ((0, 0), (1, 2)), ((0, 1), (2, 2)), ((0, 1), (0,)),
], ids=str)
def test_invalid_axes(source, destination):
    with pytest.raises(ValueError):
        F.moveaxis(numpy.zeros((2, 3, 4), numpy.float32), source, destination)


def test_integer_input():
    with pytest.raises(type_check.InvalidType):
        F.moveaxis(numpy.zeros((2, 3), numpy.int32), 0, 1)
