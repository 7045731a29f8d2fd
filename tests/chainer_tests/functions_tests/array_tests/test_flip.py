import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape_axis': [((3, 4), 0), ((3, 4), 1), ((3, 4), -1), ((2, 3, 4), -3),
                   ((5,), 0), ((0, 3), 0)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFlip(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.flip(x, self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.flip(x, self.axis),


def test_class_and_view():
    x = numpy.arange(3, dtype=numpy.float32)
    y = F.flip(chainer.Variable(x), 0)
    assert type(y.creator).__name__ == 'Flip'
    assert numpy.shares_memory(x, y.array)
    numpy.testing.assert_array_equal(y.array, [2, 1, 0])


@pytest.mark.parametrize('shape, axis', [((2, 3), 2), ((2, 3), -3), ((), 0)],
                         ids=['axis', 'negative_axis', 'zero_dim'])
def test_invalid_axis(shape, axis):
    with pytest.raises(type_check.InvalidType):
        F.flip(numpy.zeros(shape, numpy.float32), axis)


@pytest.mark.parametrize('axis', [None, 1.0, (0,)], ids=str)
def test_axis_type(axis):
    with pytest.raises(TypeError):
        F.flip(numpy.zeros((2, 3), numpy.float32), axis)


def test_flip_helper_matches_numpy():
    # The module's array-level helper is used by code that predates
    # numpy.flip.
    from chainer.functions.array import flip
    x = numpy.arange(24).reshape(2, 3, 4)
    for axis in (0, 1, 2, -1):
        numpy.testing.assert_array_equal(
            flip._flip(x, axis), numpy.flip(x, axis))
