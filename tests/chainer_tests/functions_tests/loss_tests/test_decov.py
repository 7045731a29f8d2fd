import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import decov
from chainer.utils import type_check


def _covariance(h):
    h = h.astype(numpy.float64)
    hc = h - h.mean(axis=0)
    cov = hc.T.dot(hc) / len(h)
    numpy.fill_diagonal(cov, 0)
    return cov


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (1, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['half_squared_sum', 'no'],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDeCov(testing.FunctionTestCase):

    # DeCov is an old-style Function: it is differentiable once only.
    skip_double_backward_test = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.decov(*inputs, reduce=self.reduce),

    def forward_expected(self, inputs):
        cov = _covariance(*inputs)
        if self.reduce == 'half_squared_sum':
            cov = 0.5 * (cov ** 2).sum()
        return numpy.asarray(cov, self.dtype),


def test_docstring_values():
    h = numpy.array([[1., 2.], [-1., 0.]], numpy.float32)
    loss = F.decov(chainer.Variable(h))
    assert isinstance(loss.creator, decov.DeCov)
    assert float(loss.array) == 1.0
    numpy.testing.assert_array_equal(
        F.decov(h, reduce='no').array, [[0., 1.], [1., 0.]])


def test_invalid_reduce():
    with pytest.raises(ValueError, match='half_squared_sum'):
        F.decov(numpy.zeros((2, 3), numpy.float32), reduce='mean')


@pytest.mark.parametrize('h', [
    numpy.zeros(3, numpy.float32),
    numpy.zeros((2, 3, 1), numpy.float32),
    numpy.zeros((2, 3), numpy.int32),
], ids=['1d', '3d', 'int'])
def test_invalid_inputs(h):
    with pytest.raises(type_check.InvalidType):
        F.decov(h)
