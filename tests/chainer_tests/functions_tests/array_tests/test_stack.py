import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape_axis': [
        ((3, 4), 0), ((3, 4), 1), ((3, 4), 2), ((3, 4), -1), ((3, 4), -3),
        ((), 0), ((2, 0), 1),
    ],
    'n': [1, 3],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestStack(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
                     for _ in range(self.n))

    def forward(self, inputs, device):
        return F.stack(inputs, self.axis),

    def forward_expected(self, inputs):
        return numpy.stack(inputs, self.axis),


def test_class_and_default_axis():
    xs = [chainer.Variable(numpy.zeros((2, 3), numpy.float32))] * 2
    y = F.stack(xs)
    assert type(y.creator).__name__ == 'Stack'
    assert y.shape == (2, 2, 3)


@pytest.mark.parametrize('shapes, axis', [
    ([(2, 3), (3, 2)], 0),
    ([(2, 3), (2, 3)], 3),
    ([(2, 3), (2, 3)], -4),
], ids=['shape', 'axis', 'negative_axis'])
def test_invalid(shapes, axis):
    xs = [numpy.zeros(s, numpy.float32) for s in shapes]
    with pytest.raises(type_check.InvalidType):
        F.stack(xs, axis)


def test_invalid_dtype():
    xs = [numpy.zeros((2,), numpy.float32), numpy.zeros((2,), numpy.int32)]
    with pytest.raises(type_check.InvalidType):
        F.stack(xs)


def test_no_inputs():
    with pytest.raises(type_check.InvalidType):
        F.stack([])
