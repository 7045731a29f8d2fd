import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing


@testing.parameterize(*testing.product({
    'shape_axis': [((3, 4), 0), ((3, 4), 1), ((3, 4), -1), ((2, 3, 4), -2),
                   ((0, 4), 1), ((0,), 0)],
    'inv': [False, True],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPermutate(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        n = self.shape[self.axis]
        self.indices = numpy.random.permutation(n).astype(numpy.int32)
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        indices = device.send(self.indices)
        return F.permutate(x, indices, self.axis, self.inv),

    def forward_expected(self, inputs):
        x, = inputs
        y = numpy.empty_like(x)
        index = (slice(None),) * (self.axis % x.ndim)
        for i, j in enumerate(self.indices):
            if self.inv:
                y[index + (j,)] = x[index + (i,)]
            else:
                y[index + (i,)] = x[index + (j,)]
        return y,


def test_class_and_variable_indices():
    x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    indices = chainer.Variable(numpy.array([1, 2, 0], numpy.int32))
    y = F.permutate(x, indices)
    assert type(y.creator).__name__ == 'Permutate'
    numpy.testing.assert_array_equal(y.array, [1, 2, 0])


@pytest.mark.parametrize('indices', [
    numpy.array([0., 1.]), numpy.array([[0, 1]]), numpy.array(0),
], ids=['float', 'two_dim', 'zero_dim'])
def test_invalid_indices(indices):
    with pytest.raises(ValueError):
        F.permutate(numpy.zeros((2,), numpy.float32), indices)


@pytest.mark.parametrize('indices', [[0, 2], [-1, 0], [1, 1]], ids=str)
def test_non_permutation_in_debug_mode(indices):
    x = numpy.zeros((2,), numpy.float32)
    indices = numpy.array(indices, numpy.int32)
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError):
            F.permutate(x, indices)


@pytest.mark.parametrize('indices, error', [
    ([0, 3, 1], IndexError), ([-1, 0, 1], IndexError),
    ([1, 0, 2, 3], IndexError), ([0, 0, 1], ValueError),
    ([1, 0], ValueError),
], ids=str)
@pytest.mark.parametrize('inv', [False, True])
def test_non_permutation(indices, error, inv):
    # Negative, duplicate and missing indices would give a silent number.
    x = numpy.arange(3, dtype=numpy.float32)
    with pytest.raises(error):
        F.permutate(x, numpy.array(indices, numpy.int32), inv=inv)


def test_longer_permutation_in_debug_mode():
    # A permutation of its own length that does not fit the axis raises
    # IndexError in debug mode too.
    x = numpy.arange(3, dtype=numpy.float32)
    with chainer.using_config('debug', True):
        with pytest.raises(IndexError):
            F.permutate(x, numpy.array([1, 0, 2, 3], numpy.int32))


@testing.attr.gpu
@pytest.mark.parametrize('indices', [[0, 3, 1], [-1, 0, 1]], ids=str)
def test_non_permutation_gpu(indices):
    from chainer.backends import cuda
    x = cuda.cupy.arange(3, dtype=numpy.float32)
    with pytest.raises(IndexError):
        F.permutate(x, cuda.cupy.array(indices, numpy.int32))
