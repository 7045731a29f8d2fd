import sys

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import _scipy_special
from chainer.functions.math import zeta
from chainer.utils import type_check


@pytest.fixture
def no_scipy(monkeypatch):
    # Makes ``from scipy import special`` fail, as without SciPy.
    monkeypatch.setattr(_scipy_special, '_special', None)
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)


@testing.with_requires('scipy')
@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'x': [2., 3.5],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestZeta(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {
                'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {
                'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        return numpy.random.uniform(1, 3, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.zeta(self.x, *inputs),

    def forward_expected(self, inputs):
        from scipy import special
        q, = inputs
        y = special.zeta(self.x, q.astype(numpy.float64))
        return numpy.asarray(y, q.dtype),


@testing.with_requires('scipy')
def test_array_exponents():
    from scipy import special
    x = numpy.array([2., 3., 4.])
    q = chainer.Variable(numpy.array([1.5, 2., 2.5], numpy.float32))
    y = F.zeta(x, q)
    assert type(y.creator) is zeta.Zeta
    assert y.creator.label == 'zeta'
    testing.assert_allclose(y.array, special.zeta(x, q.array), rtol=1e-5)
    F.sum(y).backward()
    testing.assert_allclose(
        q.grad, -x * special.zeta(x + 1, q.array), rtol=1e-5)


@testing.with_requires('scipy')
def test_broadcast_exponents_gradient_shape():
    x = numpy.array([[2.], [3.]])
    q = chainer.Variable(numpy.array([1.5, 2., 2.5]))
    y = F.zeta(x, q)
    assert y.shape == (2, 3)
    F.sum(y).backward()
    assert q.grad.shape == (3,)


@testing.with_requires('scipy')
def test_variable_exponent_is_a_constant():
    x = chainer.Variable(numpy.array(2.))
    q = chainer.Variable(numpy.array([1.5, 2.]))
    F.sum(F.zeta(x, q)).backward()
    assert x.grad is None
    assert q.grad is not None


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.zeta(2., numpy.ones((2,), numpy.int32))


def test_without_scipy(no_scipy):
    with pytest.raises(ImportError, match='pip install scipy'):
        F.zeta(2., numpy.ones((2,), numpy.float32))
