import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing


@testing.parameterize(*testing.product({
    'shape_repeats_axis': [
        ((2, 3), 2, None), ((2, 3), 2, 0), ((2, 3), 3, 1), ((2, 3), 2, -1),
        ((2, 3), 0, 1), ((2, 3), (1, 0, 3), 1), ((2, 3), (3, 1), -2),
        ((2, 3), (0, 0, 0), 1), ((2, 3), (2, 0, 1, 1, 0, 3), None),
        ((2, 3), (2,), 0), ((), 3, None), ((), (2,), None), ((0, 3), 2, 0),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestRepeat(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.repeats, self.axis = self.shape_repeats_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.repeat(x, self.repeats, self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.repeat(x, self.repeats, self.axis),


def test_class_and_gradient_sums_copies():
    x = chainer.Variable(numpy.zeros((3, 1), numpy.float32))
    y = F.repeat(x, (2, 0, 3), axis=0)
    assert type(y.creator).__name__ == 'Repeat'
    y.grad = numpy.arange(5, dtype=numpy.float32).reshape(5, 1)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0 + 1], [0], [2 + 3 + 4]])


@pytest.mark.parametrize('repeats', [1.0, [2], (2, 1.0), None], ids=str)
def test_repeats_type(repeats):
    with pytest.raises(TypeError):
        F.repeat(numpy.zeros((2,), numpy.float32), repeats)


@pytest.mark.parametrize('repeats', [-1, (2, -1)], ids=str)
def test_negative_repeats(repeats):
    with pytest.raises(ValueError):
        F.repeat(numpy.zeros((2,), numpy.float32), repeats, 0)


@pytest.mark.parametrize('axis', [1.0, True, '0'], ids=str)
def test_axis_type(axis):
    with pytest.raises(TypeError):
        F.repeat(numpy.zeros((2,), numpy.float32), 2, axis)


@pytest.mark.parametrize('repeats, axis', [
    (True, None), (True, 0), ((True,), None), ((True, False), 0),
], ids=str)
def test_bool_repeats(repeats, axis):
    # NumPy takes bools for counts, and so does repeat, in both directions.
    x = chainer.Variable(numpy.array([1, 2], numpy.float32))
    y = F.repeat(x, repeats, axis)
    expected = numpy.repeat(x.array, repeats, axis)
    numpy.testing.assert_array_equal(y.array, expected)
    gy = numpy.arange(1, y.size + 1, dtype=numpy.float32)
    y.grad = gy
    y.backward()
    gx = numpy.zeros(2, numpy.float32)
    numpy.add.at(gx, numpy.repeat(numpy.arange(2), repeats), gy)
    numpy.testing.assert_array_equal(x.grad, gx)
