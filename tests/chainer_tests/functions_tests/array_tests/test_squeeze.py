import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape_axis': [
        ((1, 3, 1, 2), None), ((1, 3, 1, 2), 0), ((1, 3, 1, 2), -2),
        ((1, 3, 1, 2), (0, 2)), ((1, 3, 1, 2), (-4, 2)), ((1,), None),
        ((), None), ((2, 0, 1), 2),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSqueeze(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.squeeze(x, self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.squeeze(x, self.axis),


def test_class_and_view():
    x = numpy.zeros((1, 3), numpy.float32)
    y = F.squeeze(chainer.Variable(x))
    assert type(y.creator).__name__ == 'Squeeze'
    assert numpy.shares_memory(x, y.array)


@pytest.mark.parametrize('axis', [2, -3, (0, 2)], ids=str)
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType):
        F.squeeze(numpy.zeros((1, 1), numpy.float32), axis)


def test_axis_of_length_other_than_one():
    with pytest.raises(ValueError):
        F.squeeze(numpy.zeros((1, 2), numpy.float32), 1)


@pytest.mark.parametrize('axis', [1.0, [0], (0, 1.0)], ids=str)
def test_axis_type(axis):
    with pytest.raises(TypeError):
        F.squeeze(numpy.zeros((1, 1), numpy.float32), axis)


def test_argone():
    from chainer.functions.array import squeeze
    assert squeeze.argone((1, 3, 1, 2)) == [0, 2]
    with pytest.raises(ValueError):
        squeeze.argone((1, 2.0))
