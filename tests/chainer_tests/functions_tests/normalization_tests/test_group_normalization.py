import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.utils import type_check


def _expected(x, groups, gamma, beta, eps):
    n, c = x.shape[:2]
    xg = x.astype(numpy.float64).reshape(n, groups, -1)
    x_hat = (xg - xg.mean(axis=2, keepdims=True)) / numpy.sqrt(
        xg.var(axis=2, keepdims=True) + eps)
    x_hat = x_hat.reshape(n, c, -1)
    y = x_hat * gamma[:, None] + beta[:, None]
    return y.reshape(x.shape)


@testing.parameterize(*(testing.product({
    'shape': [(2, 6), (2, 6, 5), (3, 4, 2, 3)],
    'groups': [1, 2],
    'dtype': [numpy.float32],
    'param_dtype': [None],
}) + testing.product({
    'shape': [(2, 6, 3)],
    'groups': [3],
    'dtype': [numpy.float16, numpy.float64],
    'param_dtype': [None],
}) + [
    {'shape': (2, 6, 3), 'groups': 3, 'dtype': numpy.float16,
     'param_dtype': numpy.float32},
]))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestGroupNormalization(testing.FunctionTestCase):

    eps = 1e-3

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_forward_options = {'atol': 1e-4, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}

    def generate_inputs(self):
        param_dtype = self.param_dtype or self.dtype
        c = self.shape[1]
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(.5, 1, c).astype(param_dtype)
        beta = numpy.random.uniform(-1, 1, c).astype(param_dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return F.group_normalization(x, self.groups, gamma, beta,
                                     eps=self.eps),

    def forward_expected(self, inputs):
        x, gamma, beta = inputs
        y = _expected(x, self.groups, gamma, beta, self.eps)
        return y.astype(self.dtype),


@testing.fix_random()
def test_third_order():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, 4, 3))
    gamma = rng.uniform(.5, 1, 4)
    beta = rng.uniform(-1, 1, 4)
    w = rng.uniform(-1, 1, x.shape)

    def f(x, gamma):
        y = F.group_normalization(x, 2, gamma, beta)
        return chainer.grad([F.sum(y * y * y * w)], [x, gamma],
                            enable_double_backprop=True)

    gys = (rng.uniform(-1, 1, x.shape), rng.uniform(-1, 1, 4))
    ggs = (rng.uniform(-1, 1, x.shape), rng.uniform(-1, 1, 4))
    gradient_check.check_double_backward(f, (x, gamma), gys, ggs,
                                         atol=1e-4, rtol=1e-3)


def test_mixed_precision_dtypes():
    x = chainer.Variable(numpy.arange(12, dtype=numpy.float16).reshape(2, 6))
    gamma = chainer.Variable(numpy.ones(6, numpy.float32))
    beta = chainer.Variable(numpy.zeros(6, numpy.float32))
    y = F.group_normalization(x, 2, gamma, beta)
    assert y.dtype == numpy.float16
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert x.grad.dtype == numpy.float16
    assert gamma.grad.dtype == numpy.float32
    assert beta.grad.dtype == numpy.float32


def test_node_name():
    x = chainer.Variable(numpy.ones((2, 4), numpy.float32))
    y = F.group_normalization(x, 2, numpy.ones(4, numpy.float32),
                              numpy.zeros(4, numpy.float32))
    assert y.creator.label == 'GroupNormalization'


def test_groups_must_be_int():
    x = numpy.ones((2, 4), numpy.float32)
    gamma = numpy.ones(4, numpy.float32)
    with pytest.raises(TypeError):
        F.group_normalization(x, 2.0, gamma, gamma)


def test_groups_must_divide_channels():
    x = numpy.ones((2, 4), numpy.float32)
    gamma = numpy.ones(4, numpy.float32)
    with pytest.raises(ValueError):
        F.group_normalization(x, 3, gamma, gamma)


@pytest.mark.parametrize('x_shape, gamma_shape, dtype', [
    ((2, 4), (3,), numpy.float32),
    ((4,), (4,), numpy.float32),
    ((2, 4), (4, 1), numpy.float32),
    ((2, 4), (4,), numpy.int32),
], ids=['channels', 'ndim', 'gamma-ndim', 'int'])
def test_invalid_type(x_shape, gamma_shape, dtype):
    x = numpy.ones(x_shape, dtype)
    gamma = numpy.ones(gamma_shape, numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.group_normalization(x, 1, gamma, gamma)


@pytest.mark.parametrize('eps', [1e-5, 1e-1])
def test_mul_inv_std_of_rows(eps):
    # The row-wise node that scales by the inverse standard deviation of
    # the rows of x, differentiated through the statistics.
    from chainer.functions.normalization import group_normalization as gn
    rng = numpy.random.RandomState(0)
    x, y, gz, ggx, ggy = (rng.uniform(-1, 1, (5, 4)) for _ in range(5))

    def f(x, y):
        mean = x.array.mean(axis=1)
        inv_std = (x.array.var(axis=1) + eps) ** -0.5
        ones = numpy.ones(len(mean))
        return gn._MulInvStd(eps, mean, inv_std, ones).apply((x, y))

    z, = f(chainer.Variable(x), chainer.Variable(y))
    expected = y / numpy.sqrt(x.var(axis=1, keepdims=True) + eps)
    numpy.testing.assert_allclose(z.array, expected, rtol=1e-12)
    gradient_check.check_backward(f, (x, y), gz, atol=1e-5, rtol=1e-5)
    gradient_check.check_double_backward(
        f, (x, y), gz, (ggx, ggy), atol=1e-4, rtol=1e-4)
