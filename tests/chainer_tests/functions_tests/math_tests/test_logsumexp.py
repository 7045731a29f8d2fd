import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


def _logsumexp(x, axis):
    x = x.astype(numpy.float64)
    m = x.max(axis=axis, keepdims=True)
    y = numpy.log(numpy.exp(x - m).sum(axis=axis, keepdims=True)) + m
    return numpy.squeeze(y, axis=axis)


@testing.parameterize(*testing.product({
    'shape_axis': [
        ((3, 2, 4), None), ((3, 2, 4), 0), ((3, 2, 4), 1), ((3, 2, 4), -1),
        ((3, 2, 4), (0, 2)), ((3, 2, 4), (2, 1, 0)), ((), None), ((0, 3), 1),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLogSumExp(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.logsumexp(x, axis=self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(_logsumexp(x, self.axis), self.dtype),


def test_large_values_do_not_overflow():
    x = numpy.array([[1000., 1000.], [-1000., -1000.]], numpy.float32)
    y = F.logsumexp(x, axis=1)
    numpy.testing.assert_allclose(
        y.array, [1000 + numpy.log(2), -1000 + numpy.log(2)], rtol=1e-6)


def test_infinite_rows():
    # As in Chainer 7.8, a row is shifted by its maximum even when that is
    # infinite: -inf - (-inf) and inf - inf are NaN, so such rows give NaN.
    x = numpy.array([[-numpy.inf, -numpy.inf], [numpy.inf, 1.],
                     [-numpy.inf, 1.]], numpy.float32)
    with numpy.errstate(invalid='ignore'):
        y = F.logsumexp(x, axis=1)
    numpy.testing.assert_array_equal(y.array, [numpy.nan, numpy.nan, 1.])


def test_gradient_is_softmax():
    x = chainer.Variable(numpy.array([[0., 1., 2.]], numpy.float32))
    F.logsumexp(x).backward()
    e = numpy.exp([0., 1., 2.])
    numpy.testing.assert_allclose(x.grad, [e / e.sum()], rtol=1e-6)


def test_class():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    assert type(F.logsumexp(x).creator).__name__ == 'LogSumExp'


@pytest.mark.parametrize('axis', [2, -3, (0, 2)], ids=str)
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType):
        F.logsumexp(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.logsumexp(x.astype(numpy.int32))
    with pytest.raises(ValueError, match='duplicate value in axis'):
        F.logsumexp(x, axis=(0, 0))
    with pytest.raises(TypeError, match='None, int or tuple of int'):
        F.logsumexp(x, axis=[0])
