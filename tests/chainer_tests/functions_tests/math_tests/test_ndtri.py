import sys

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import _scipy_special
from chainer.functions.math import ndtri
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
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestNdtri(testing.FunctionTestCase):

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
        x = numpy.random.uniform(0.1, 0.9, self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.ndtri(*inputs),

    def forward_expected(self, inputs):
        from scipy import special
        x, = inputs
        y = special.ndtri(x.astype(numpy.float64))
        return numpy.asarray(y, x.dtype),


def test_label():
    x = chainer.Variable(numpy.full((2,), 0.5, numpy.float32))
    y = F.ndtri(x)
    assert type(y.creator) is ndtri.Ndtri
    assert y.creator.label == 'ndtri'


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.ndtri(numpy.ones((2,), numpy.int32))


def test_two_inputs():
    x = numpy.full((2,), 0.5, numpy.float32)
    with pytest.raises(type_check.InvalidType):
        ndtri.Ndtri().apply((x, x))


def test_without_scipy(no_scipy):
    x = numpy.full((2,), 0.5, numpy.float32)
    with pytest.raises(ImportError, match='pip install scipy'):
        F.ndtri(x)


def test_cpu_flag():
    # SciPy is a test requirement.
    assert ndtri.available_cpu is True
