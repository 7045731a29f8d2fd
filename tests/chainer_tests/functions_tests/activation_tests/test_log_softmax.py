import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.activation import log_softmax
from chainer.utils import type_check


def _log_softmax(x, axis):
    x = x.astype(numpy.float64)
    m = x.max(axis=axis, keepdims=True, initial=-numpy.inf)
    with numpy.errstate(divide='ignore'):
        log_z = numpy.log(numpy.exp(x - m).sum(axis=axis, keepdims=True))
    return x - m - log_z


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
class TestLogSoftmax(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-3, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-3, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.log_softmax(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        return _log_softmax(x, self.axis).astype(x.dtype),


def test_stable_where_softmax_underflows():
    x = numpy.array([[0., -1000.]], numpy.float32)
    y = F.log_softmax(x)
    numpy.testing.assert_allclose(y.array, [[0., -1000.]])


def test_node_class():
    y = F.log_softmax(chainer.Variable(numpy.ones((2, 3), numpy.float32)))
    assert type(y.creator) is log_softmax.LogSoftmax


def test_array_helper_matches():
    x = numpy.random.RandomState(0).uniform(-2, 2, (3, 4))
    numpy.testing.assert_array_equal(
        log_softmax._log_softmax(x), F.log_softmax(x).array)


@pytest.mark.parametrize('axis', [2, -3])
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType):
        F.log_softmax(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.log_softmax(numpy.ones((2, 3), numpy.int32))


@pytest.mark.parametrize('axis', [0, 1, 2])
def test_logsumexp_helper(axis):
    x = numpy.linspace(-3, 4, 24).reshape(2, 3, 4).astype(numpy.float32)
    y = log_softmax.logsumexp(x, axis)
    expected = numpy.log(numpy.exp(x.astype(numpy.float64)).sum(
        axis=axis, keepdims=True))
    assert y.dtype == numpy.float32
    assert y.shape == expected.shape
    numpy.testing.assert_allclose(y, expected, rtol=1e-6)
    # Shifted by the maximum: large values do not overflow.
    numpy.testing.assert_allclose(
        log_softmax.logsumexp(x + 1000, axis), expected + 1000, rtol=1e-6)
