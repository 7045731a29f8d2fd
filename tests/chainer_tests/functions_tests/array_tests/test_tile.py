import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing


@testing.parameterize(*testing.product({
    'shape_reps': [
        ((2, 3), 2), ((2, 3), (2, 1)), ((2, 3), (1, 2, 3)), ((2, 3, 2), (3,)),
        ((2, 3), 0), ((2, 3), (0, 2)), ((), (2, 3)), ((), 1), ((0, 2), 3),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTile(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.reps = self.shape_reps
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.tile(x, self.reps),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.tile(x, self.reps),


def test_class_and_gradient_sums_copies():
    x = chainer.Variable(numpy.zeros((2,), numpy.float32))
    y = F.tile(x, (2, 2))
    assert type(y.creator).__name__ == 'Tile'
    y.grad = numpy.arange(8, dtype=numpy.float32).reshape(2, 4)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [0 + 2 + 4 + 6, 1 + 3 + 5 + 7])


@pytest.mark.parametrize('reps', [1.0, [2], (2, 1.0), None], ids=str)
def test_reps_type(reps):
    with pytest.raises(TypeError):
        F.tile(numpy.zeros((2,), numpy.float32), reps)


@pytest.mark.parametrize('reps', [-1, (2, -1)], ids=str)
def test_negative_reps(reps):
    with pytest.raises(ValueError):
        F.tile(numpy.zeros((2,), numpy.float32), reps)
