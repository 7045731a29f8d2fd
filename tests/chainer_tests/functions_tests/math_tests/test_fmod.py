import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import fmod
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shapes': [((3, 2), (3, 2)), ((), ()), ((0, 3), (0, 3)),
               ((2, 3), (3,)), ((3, 1), (1, 2))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFmod(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        shape_x, shape_d = self.shapes
        x = numpy.random.uniform(-5, 5, shape_x).astype(self.dtype)
        divisor = numpy.random.uniform(-2, 2, shape_d)
        divisor = numpy.where(numpy.abs(divisor) < 0.5, 0.5, divisor)
        divisor = divisor.astype(self.dtype)
        # Stay away from the jumps of fmod, where x / divisor is an integer.
        ratio = x / divisor
        x = numpy.where(numpy.abs(ratio - numpy.round(ratio)) < 0.1,
                        x + 0.2 * divisor, x).astype(self.dtype)
        return x, divisor

    def forward(self, inputs, device):
        return F.fmod(*inputs),

    def forward_expected(self, inputs):
        x, divisor = inputs
        y = numpy.fmod(x.astype(numpy.float64), divisor.astype(numpy.float64))
        return numpy.asarray(y, self.dtype),


def test_label():
    x = chainer.Variable(numpy.ones((2,), numpy.float32))
    y = F.fmod(x, x)
    assert type(y.creator) is fmod.Fmod
    assert y.creator.label == 'fmod'


def test_sign_follows_dividend():
    x = numpy.array([-3., -1., 1., 3.], numpy.float32)
    d = numpy.array([2., -2., 2., -2.], numpy.float32)
    numpy.testing.assert_array_equal(F.fmod(x, d).array, [-1, -1, 1, 1])


def test_divisor_gradient():
    x = chainer.Variable(numpy.array([7., -7.], numpy.float64))
    d = chainer.Variable(numpy.array([2., 2.], numpy.float64))
    F.sum(F.fmod(x, d)).backward()
    numpy.testing.assert_array_equal(x.grad, [1, 1])
    numpy.testing.assert_array_equal(d.grad, [-3, 3])


@pytest.mark.parametrize('dtypes', [
    (numpy.float32, numpy.float64),
    (numpy.int32, numpy.int32),
], ids=['mixed', 'int'])
def test_invalid_dtype(dtypes):
    with pytest.raises(type_check.InvalidType):
        F.fmod(numpy.ones((2,), dtypes[0]), numpy.ones((2,), dtypes[1]))


def test_invalid_shape():
    with pytest.raises(type_check.InvalidType):
        F.fmod(numpy.ones((2,), numpy.float32),
               numpy.ones((3,), numpy.float32))
