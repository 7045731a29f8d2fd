import sys

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import _scipy_special
from chainer.functions.math import polygamma
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
    'order': [0, 1, 2],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPolyGamma(testing.FunctionTestCase):

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
        n = numpy.full(self.shape, self.order, numpy.int32)
        x = numpy.random.uniform(1, 3, self.shape).astype(self.dtype)
        return n, x

    def forward(self, inputs, device):
        return F.polygamma(*inputs),

    def forward_expected(self, inputs):
        from scipy import special
        n, x = inputs
        y = special.polygamma(n, x.astype(numpy.float64))
        return numpy.asarray(y, x.dtype),


@testing.with_requires('scipy')
def test_broadcast_order():
    from scipy import special
    n = numpy.array([[0], [1], [3]], numpy.int64)
    x = numpy.array([0.5, 1.5, 4.], numpy.float32)
    y = F.polygamma(n, x)
    assert y.shape == (3, 3)
    assert y.dtype == numpy.float32
    testing.assert_allclose(y.array, special.polygamma(n, x), rtol=1e-5)


@testing.with_requires('scipy')
def test_order_gets_no_gradient():
    n = chainer.Variable(numpy.array([1, 2], numpy.int32))
    x = chainer.Variable(numpy.array([1.5, 2.5], numpy.float64))
    y = F.polygamma(n, x)
    assert type(y.creator) is polygamma.PolyGamma
    assert y.creator.label == 'polygamma'
    F.sum(y).backward()
    assert n.grad is None
    from scipy import special
    testing.assert_allclose(x.grad, special.polygamma([2, 3], x.array))


@pytest.mark.parametrize('dtypes', [
    (numpy.float32, numpy.float32),
    (numpy.int32, numpy.int32),
], ids=['float_n', 'int_x'])
def test_invalid_dtype(dtypes):
    with pytest.raises(type_check.InvalidType):
        F.polygamma(numpy.ones((2,), dtypes[0]), numpy.ones((2,), dtypes[1]))


def test_shape_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.polygamma(numpy.ones((2,), numpy.int32),
                    numpy.ones((3,), numpy.float32))


def test_without_scipy(no_scipy):
    with pytest.raises(ImportError, match='pip install scipy'):
        F.polygamma(numpy.ones((2,), numpy.int32),
                    numpy.ones((2,), numpy.float32))
