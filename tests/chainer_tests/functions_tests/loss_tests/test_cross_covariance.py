import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import cross_covariance
from chainer.utils import type_check


def _covariance(y, z):
    y = y.astype(numpy.float64)
    yc = y - y.mean(axis=0)
    zc = z - z.mean(axis=0)
    return yc.T.dot(zc) / len(y)


@testing.parameterize(*testing.product({
    'shapes': [((4, 3), (4, 2)), ((1, 2), (1, 3))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['half_squared_sum', 'no'],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCrossCovariance(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype)
                     for s in self.shapes)

    def forward(self, inputs, device):
        return F.cross_covariance(*inputs, reduce=self.reduce),

    def forward_expected(self, inputs):
        cov = _covariance(*inputs)
        if self.reduce == 'half_squared_sum':
            cov = 0.5 * (cov ** 2).sum()
        return numpy.asarray(cov, self.dtype),


def test_docstring_values():
    y = numpy.array([[1., 0.], [-1., 0.]], numpy.float32)
    z = numpy.array([[2.], [0.]], numpy.float32)
    loss = F.cross_covariance(chainer.Variable(y), z)
    assert type(loss.creator) is cross_covariance.CrossCovariance
    assert float(loss.array) == 0.5
    numpy.testing.assert_array_equal(
        F.cross_covariance(y, z, reduce='no').array, [[1.], [0.]])


def test_invalid_reduce():
    with pytest.raises(ValueError, match='half_squared_sum'):
        cross_covariance.CrossCovariance(reduce='mean')


@pytest.mark.parametrize('y, z', [
    (numpy.zeros((2, 3), numpy.float32), numpy.zeros((3, 3), numpy.float32)),
    (numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3), numpy.float64)),
    (numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float32)),
    (numpy.zeros((2, 3), numpy.int32), numpy.zeros((2, 3), numpy.int32)),
], ids=['batch', 'dtype', 'ndim', 'int'])
def test_invalid_inputs(y, z):
    with pytest.raises(type_check.InvalidType):
        F.cross_covariance(y, z)
