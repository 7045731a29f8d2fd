import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


def _expected(x, n, k, alpha, beta):
    x = x.astype(numpy.float64)
    channels = x.shape[1]
    y = numpy.empty_like(x)
    half = n // 2
    for c in range(channels):
        lo, hi = max(0, c - half), min(channels, c + half + 1)
        s = numpy.sum(x[:, lo:hi] ** 2, axis=1)
        y[:, c] = x[:, c] / (k + alpha * s) ** beta
    return y


@testing.parameterize(*(testing.product({
    'shape': [(2, 7, 3, 2), (3, 4), (2, 1, 3)],
    'n': [5, 4, 1],
    'dtype': [numpy.float32],
}) + testing.product({
    'shape': [(2, 7, 3, 2)],
    'n': [5],
    'dtype': [numpy.float16, numpy.float64],
})))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLocalResponseNormalization(testing.FunctionTestCase):

    skip_double_backward_test = True
    k = 1.5
    alpha = 0.1
    beta = 0.75

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return x,

    def forward(self, inputs, device):
        x, = inputs
        return F.local_response_normalization(
            x, n=self.n, k=self.k, alpha=self.alpha, beta=self.beta),

    def forward_expected(self, inputs):
        x, = inputs
        y = _expected(x, self.n, self.k, self.alpha, self.beta)
        return y.astype(self.dtype),


def test_defaults():
    x = numpy.random.RandomState(0).uniform(-5, 5, (2, 8, 2)).astype(
        numpy.float32)
    testing.assert_allclose(F.local_response_normalization(x).array,
                            _expected(x, 5, 2, 1e-4, .75))


def test_double_backward_is_not_implemented():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = F.local_response_normalization(x)
    assert y.creator.label == 'LocalResponseNormalization'
    gx, = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
    assert gx.creator.label == 'LocalResponseNormalizationGrad'
    with pytest.raises(NotImplementedError):
        F.sum(gx).backward()


@pytest.mark.parametrize('x', [
    numpy.ones((3,), numpy.float32), numpy.ones((2, 3), numpy.int32)],
    ids=['ndim', 'int'])
def test_invalid_type(x):
    with pytest.raises(type_check.InvalidType):
        F.local_response_normalization(x)
