import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.activation import softmax
from chainer.utils import type_check


def _softmax(x, axis):
    x = x.astype(numpy.float64)
    e = numpy.exp(x - x.max(axis=axis, keepdims=True, initial=-numpy.inf))
    return e / e.sum(axis=axis, keepdims=True)


@testing.parameterize(*testing.product_dict(
    [{'shape': (2, 3), 'axis': 1},
     {'shape': (2, 3), 'axis': 0},
     {'shape': (2, 3), 'axis': -1},
     {'shape': (2, 2, 3), 'axis': 2},
     {'shape': (2, 2, 3), 'axis': -3},
     {'shape': (4,), 'axis': 0},
     {'shape': (0, 3), 'axis': 1},
     {'shape': (3, 0), 'axis': 1}],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32},
     {'dtype': numpy.float64}],
))
@testing.fix_random()
@testing.inject_backend_tests(
    None,
    [{}, {'use_cuda': True, 'use_cudnn': 'never'},
     {'use_cuda': True, 'use_cudnn': 'always'}])
class TestSoftmax(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-3, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-3, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.softmax(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        return _softmax(x, self.axis).astype(x.dtype),


def test_large_inputs_do_not_overflow():
    x = numpy.array([[1000., 1001., 1002.]], numpy.float32)
    y = F.softmax(x)
    numpy.testing.assert_allclose(y.array, _softmax(x, 1), rtol=1e-6)
    numpy.testing.assert_allclose(y.array.sum(axis=1), [1.], rtol=1e-6)


def test_node_class():
    y = F.softmax(chainer.Variable(numpy.ones((2, 3), numpy.float32)))
    assert type(y.creator) is softmax.Softmax


@pytest.mark.parametrize('axis', [2, -3])
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType):
        F.softmax(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_zero_dimensional_input():
    with pytest.raises(type_check.InvalidType):
        F.softmax(numpy.array(1., numpy.float32), axis=0)


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.softmax(numpy.ones((2, 3), numpy.int32))
