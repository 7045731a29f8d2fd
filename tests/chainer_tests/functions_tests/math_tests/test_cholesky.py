import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'n': [1, 2, 5],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCholesky(testing.FunctionTestCase):

    def setUp(self):
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
        self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        b = numpy.random.uniform(-1, 1, (self.n, self.n))
        a = b @ b.T + self.n * numpy.eye(self.n)
        return a.astype(self.dtype),

    def forward(self, inputs, device):
        a, = inputs
        # Cholesky reads the lower triangle only: symmetrise the input so
        # that the numerical gradient matches the symmetric one.
        return F.cholesky((a + F.transpose(a)) * 0.5),

    def forward_expected(self, inputs):
        a, = inputs
        a = a.astype(numpy.float64)
        return numpy.linalg.cholesky((a + a.T) / 2).astype(self.dtype),


def test_gradient_values():
    # Values of the original implementation.
    a = chainer.Variable(numpy.array([[2., 1.], [1., 3.]]))
    gl = numpy.array([[1., 2.], [3., 4.]])
    ga, = chainer.grad([F.cholesky(a)], [a], [chainer.Variable(gl)])
    numpy.testing.assert_allclose(
        ga.array, [[0.13945107, 0.42820464], [0.42820464, 1.26491106]],
        rtol=1e-7)


def test_label():
    y = F.cholesky(chainer.Variable(numpy.eye(2, dtype=numpy.float32)))
    assert y.creator.label == 'cholesky'
    assert type(y.creator).__name__ == 'Cholesky'


def test_bad_input():
    with pytest.raises(type_check.InvalidType):
        F.cholesky(numpy.ones((2, 2, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.cholesky(numpy.eye(2, dtype=numpy.int32))
    with pytest.raises(TypeError):
        F.cholesky(numpy.eye(2, dtype=numpy.float16))
    with pytest.raises(numpy.linalg.LinAlgError):
        F.cholesky(-numpy.eye(2, dtype=numpy.float32))
