import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shapes': [(2, 7, 3), (2, 4, 3)], 'axis': 1},
        {'shapes': [(2, 7, 3), (3, 7, 3), (1, 7, 3)], 'axis': 0},
        {'shapes': [(2, 7, 3), (2, 7, 1)], 'axis': -1},
        {'shapes': [(2, 7, 3), (2, 2, 3)], 'axis': -2},
        {'shapes': [(5,), (3,)], 'axis': 0},
        {'shapes': [(2, 3)], 'axis': 1},
        {'shapes': [(2, 0, 3), (2, 4, 3)], 'axis': 1},
    ],
    [
        {'dtype': numpy.float16},
        {'dtype': numpy.float32},
        {'dtype': numpy.float64},
    ],
))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestConcat(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype)
                     for s in self.shapes)

    def forward(self, inputs, device):
        return F.concat(inputs, axis=self.axis),

    def forward_expected(self, inputs):
        return numpy.concatenate(inputs, axis=self.axis),


def test_class_and_default_axis():
    a = numpy.zeros((2, 3), numpy.float32)
    b = numpy.ones((2, 2), numpy.float32)
    y = F.concat([chainer.Variable(a), chainer.Variable(b)])
    assert type(y.creator).__name__ == 'Concat'
    assert y.shape == (2, 5)


def test_gradient_is_split():
    a = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    b = chainer.Variable(numpy.zeros((2, 2), numpy.float32))
    y = F.concat((a, b))
    y.grad = numpy.arange(10, dtype=numpy.float32).reshape(2, 5)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, [[0, 1, 2], [5, 6, 7]])
    numpy.testing.assert_array_equal(b.grad, [[3, 4], [8, 9]])


def test_integer_inputs():
    y = F.concat((numpy.arange(3), numpy.arange(2)), axis=0)
    numpy.testing.assert_array_equal(y.array, [0, 1, 2, 0, 1])


@pytest.mark.parametrize('shapes, axis', [
    ([(2, 3), (3, 3)], 1),
    ([(2, 3), (2, 3, 1)], 1),
    ([(2, 3), (2, 3)], 2),
    ([(2, 3), (2, 3)], -3),
    ([(), ()], 0),
], ids=['shape', 'ndim', 'axis', 'negative_axis', 'zero_dim'])
def test_invalid_shapes(shapes, axis):
    xs = [numpy.zeros(s, numpy.float32) for s in shapes]
    with pytest.raises(type_check.InvalidType):
        F.concat(xs, axis)


def test_invalid_dtype():
    xs = [numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3))]
    with pytest.raises(type_check.InvalidType):
        F.concat(xs)


def test_no_inputs():
    with pytest.raises(type_check.InvalidType):
        F.concat([])


@pytest.mark.parametrize('axis', [1.0, None, numpy.int64(1)], ids=str)
def test_axis_type(axis):
    with pytest.raises(TypeError):
        F.concat([numpy.zeros((2, 3), numpy.float32)], axis)
