import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape_axis': [((2, 3, 4), 0), ((2, 3, 4), 1), ((2, 3, 4), -1),
                   ((3,), 0), ((2, 0), 0)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSeparate(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.separate(x, self.axis)

    def forward_expected(self, inputs):
        x, = inputs
        return tuple(numpy.asarray(numpy.moveaxis(x, self.axis, 0)[i])
                     for i in range(x.shape[self.axis]))


def test_class_and_views():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    ys = F.separate(chainer.Variable(x), 1)
    assert type(ys[0].creator).__name__ == 'Separate'
    assert all(numpy.shares_memory(x, y.array) for y in ys)


def test_unused_outputs_get_zero_gradient():
    x = chainer.Variable(numpy.ones((3, 2), numpy.float32))
    a, b, c = F.separate(x)
    F.sum(c * 3).backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 0], [0, 0], [3, 3]])


def test_empty_axis():
    assert F.separate(numpy.zeros((0, 3), numpy.float32)) == ()


@pytest.mark.parametrize('shape, axis', [((2, 3), 2), ((2, 3), -3), ((), 0)],
                         ids=['axis', 'negative_axis', 'zero_dim'])
def test_invalid_axis(shape, axis):
    with pytest.raises(type_check.InvalidType):
        F.separate(numpy.zeros(shape, numpy.float32), axis)
