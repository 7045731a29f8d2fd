import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing


def _expected(x, shape, strides, offset):
    flat = x.ravel()
    return numpy.array([
        flat[offset + sum(i * s for i, s in zip(index, strides))]
        for index in numpy.ndindex(*shape)], x.dtype).reshape(shape)


@testing.parameterize(*testing.product({
    'case': [
        ((12,), (3, 4), (4, 1), None),
        ((3, 4), (4, 3), (1, 4), None),
        ((3, 4), (2, 2), (4, 2), 1),
        ((6,), (3, 3), (1, 1), 1),
        ((6,), (2, 3), (0, 1), 2),
        ((6,), (3,), (-2,), 5),
        ((2, 3), (), (), 4),
        ((2, 3), (0, 2), (1, 1), None),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAsStrided(testing.FunctionTestCase):

    # The output depends on the memory layout of the input.
    contiguous = 'C'
    skip_double_backward_test = True

    def setUp(self):
        self.in_shape, self.shape, self.strides, self.offset = self.case
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.in_shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.as_strided(x, self.shape, self.strides, self.offset),

    def forward_expected(self, inputs):
        x, = inputs
        return _expected(x, self.shape, self.strides, self.offset or 0),


def test_class_and_view():
    x = numpy.arange(6, dtype=numpy.float32)
    y = F.as_strided(chainer.Variable(x), (2, 2), (2, 1))
    assert type(y.creator).__name__ == 'AsStrided'
    assert numpy.shares_memory(x, y.array)


def test_offset_of_a_view():
    # The offset counts from the start of the buffer, not of the view.
    base = numpy.arange(8, dtype=numpy.float32)
    x = base[2:]
    numpy.testing.assert_array_equal(
        F.as_strided(x, (2,), (1,)).array, [2, 3])
    numpy.testing.assert_array_equal(
        F.as_strided(x, (2,), (1,), 0).array, [0, 1])


def test_gradient_of_overlapping_views():
    x = chainer.Variable(numpy.zeros((4,), numpy.float32))
    y = F.as_strided(x, (3, 2), (1, 1))
    y.grad = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [0, 1 + 2, 3 + 4, 5])


def test_gradient_of_overlapping_input():
    # The input itself views one element several times: the gradient of
    # that element is shared among the views.
    x = numpy.broadcast_to(numpy.zeros((1,), numpy.float32), (4,))
    xv = chainer.Variable(x)
    y = F.as_strided(xv, (2,), (0,))
    y.grad = numpy.array([1, 3], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(xv.grad, [1, 1, 1, 1])


def test_zero_size_input():
    x = chainer.Variable(numpy.zeros((0, 3), numpy.float32))
    y = F.as_strided(x, (0,), (1,))
    y.grad = numpy.zeros((0,), numpy.float32)
    y.backward()
    assert x.grad.shape == (0, 3)


@pytest.mark.parametrize('shape, strides, offset', [
    ((3,), (-1,), 0), ((3,), (3,), 0), ((2,), (1,), 5),
], ids=['before', 'after', 'offset'])
def test_out_of_buffer(shape, strides, offset):
    x = numpy.zeros((6,), numpy.float32)
    with pytest.raises(ValueError, match='Out of buffer'):
        F.as_strided(x, shape, strides, offset)


def test_integer_gradient():
    x = chainer.Variable(numpy.arange(3))
    y = F.as_strided(x, (3,), (1,))
    y.grad = numpy.ones(3, numpy.int64)
    with pytest.raises(TypeError):
        y.backward()


def test_no_double_backward():
    x = chainer.Variable(numpy.zeros((3,), numpy.float32))
    y = F.as_strided(x, (3,), (1,))
    gx, = chainer.grad([y], [x], [chainer.Variable(numpy.ones(3, 'f'))],
                       enable_double_backprop=True)
    with pytest.raises(NotImplementedError):
        gx.grad = numpy.ones(3, numpy.float32)
        gx.backward()


def test_stride_array_helper():
    # The array-level helper takes strides and offset in elements.
    from chainer.functions.array import as_strided
    x = numpy.arange(8, dtype=numpy.float32)
    y = as_strided._stride_array(x, (3, 3), (-1, 2), 3)
    numpy.testing.assert_array_equal(
        y, [[3, 5, 7], [2, 4, 6], [1, 3, 5]])
    with pytest.raises(ValueError):
        as_strided._stride_array(x, (3, 3), (-1, 2), 1)
