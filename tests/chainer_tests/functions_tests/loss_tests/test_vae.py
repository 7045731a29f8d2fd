import numpy
import pytest

from chainer import functions as F
from chainer import testing


def _reduce(loss, reduce):
    if reduce == 'sum':
        return numpy.asarray(loss.sum())
    if reduce == 'mean':
        return numpy.asarray(loss.mean())
    return loss


class _VAELossTest:
    # FunctionTestCase methods shared by the three losses

    shape = (3, 4)

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        return tuple(
            numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
            for _ in range(self.n_inputs))

    def forward_expected(self, inputs):
        args = [a.astype(numpy.float64) for a in inputs]
        loss = _reduce(self.expected(*args), self.reduce)
        return loss.astype(self.dtype),


PARAMS = testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['sum', 'mean', 'no'],
})


@testing.parameterize(*PARAMS)
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestGaussianKLDivergence(_VAELossTest, testing.FunctionTestCase):

    n_inputs = 2

    def forward(self, inputs, device):
        return F.gaussian_kl_divergence(*inputs, reduce=self.reduce),

    def expected(self, mean, ln_var):
        return 0.5 * (mean ** 2 + numpy.exp(ln_var) - ln_var - 1)


@testing.parameterize(*PARAMS)
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBernoulliNLL(_VAELossTest, testing.FunctionTestCase):

    n_inputs = 2

    def forward(self, inputs, device):
        return F.bernoulli_nll(*inputs, reduce=self.reduce),

    def expected(self, x, y):
        p = 1 / (1 + numpy.exp(-y))
        return -(x * numpy.log(p) + (1 - x) * numpy.log(1 - p))


@testing.parameterize(*PARAMS)
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestGaussianNLL(_VAELossTest, testing.FunctionTestCase):

    n_inputs = 3

    def forward(self, inputs, device):
        return F.gaussian_nll(*inputs, reduce=self.reduce),

    def expected(self, x, mean, ln_var):
        var = numpy.exp(ln_var)
        return (0.5 * numpy.log(2 * numpy.pi * var)
                + (x - mean) ** 2 / (2 * var))


@pytest.mark.parametrize('function, n_inputs', [
    (F.gaussian_kl_divergence, 2),
    (F.bernoulli_nll, 2),
    (F.gaussian_nll, 3),
], ids=['gaussian_kl_divergence', 'bernoulli_nll', 'gaussian_nll'])
def test_invalid_reduce(function, n_inputs):
    inputs = [numpy.zeros(3, numpy.float32)] * n_inputs
    with pytest.raises(ValueError, match='reduce'):
        function(*inputs, reduce='half')
