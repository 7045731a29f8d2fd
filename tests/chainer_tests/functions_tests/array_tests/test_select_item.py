import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (1, 1), (0, 3)],
    't_dtype': [numpy.int32, numpy.int64],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSelectItem(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        t = numpy.random.randint(
            0, self.shape[1], self.shape[:1]).astype(self.t_dtype)
        return x, t

    def forward(self, inputs, device):
        x, t = inputs
        return F.select_item(x, t),

    def forward_expected(self, inputs):
        x, t = inputs
        return numpy.array([x[i, j] for i, j in enumerate(t)], self.dtype),


def test_class_and_gradient():
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    y = F.select_item(x, numpy.array([2, 0], numpy.int32))
    assert type(y.creator).__name__ == 'SelectItem'
    y.grad = numpy.array([4, 5], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 0, 4], [5, 0, 0]])


@pytest.mark.parametrize('x_shape, t_shape, t_dtype', [
    ((2, 3), (2,), numpy.float32),
    ((2, 3, 1), (2,), numpy.int32),
    ((2, 3), (2, 1), numpy.int32),
    ((2, 3), (3,), numpy.int32),
], ids=['t_dtype', 'x_ndim', 't_ndim', 'batch'])
def test_invalid(x_shape, t_shape, t_dtype):
    x = numpy.zeros(x_shape, numpy.float32)
    t = numpy.zeros(t_shape, t_dtype)
    with pytest.raises(type_check.InvalidType):
        F.select_item(x, t)


@pytest.mark.parametrize('label', [3, -1])
def test_label_out_of_range_in_debug_mode(label):
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.array([0, label], numpy.int32)
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError):
            F.select_item(x, t)


def test_zero_dim_labels():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.select_item(x, numpy.array(0, numpy.int32))


@pytest.mark.parametrize('label', [3, -1, -4], ids=str)
def test_label_out_of_range(label):
    # A negative label is not read from the end of the row.
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    t = numpy.array([0, label], numpy.int32)
    with pytest.raises(IndexError, match='label {} is out of bounds'.format(
            label)):
        F.select_item(x, t)


@testing.attr.gpu
@pytest.mark.parametrize('label', [3, -1], ids=str)
def test_label_out_of_range_gpu(label):
    # CuPy would wrap any out-of-range index around.
    from chainer.backends import cuda
    x = cuda.cupy.zeros((2, 3), numpy.float32)
    t = cuda.cupy.array([0, label], numpy.int32)
    with pytest.raises(IndexError):
        F.select_item(x, t)
