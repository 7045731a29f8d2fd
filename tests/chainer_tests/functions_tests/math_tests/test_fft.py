import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'method': ['fft', 'ifft'],
    'shape': [(4,), (2, 3), (2, 3, 5), (0, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFFT(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        real = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        imag = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return real, imag

    def forward(self, inputs, device):
        return getattr(F, self.method)(inputs)

    def forward_expected(self, inputs):
        real, imag = inputs
        x = real.astype(numpy.float64) + 1j * imag.astype(numpy.float64)
        y = getattr(numpy.fft, self.method)(x)
        return y.real.astype(self.dtype), y.imag.astype(self.dtype)


def test_round_trip_and_class():
    real = chainer.Variable(numpy.array([1., 2., 3., 4.], numpy.float32))
    imag = chainer.Variable(numpy.zeros(4, numpy.float32))
    yr, yi = F.fft((real, imag))
    assert type(yr.creator).__name__ == 'FFT'
    zr, zi = F.ifft((yr, yi))
    numpy.testing.assert_allclose(zr.array, real.array, atol=1e-6)
    numpy.testing.assert_allclose(zi.array, 0, atol=1e-6)


def test_gradient_of_one_part():
    # Only the real part is used: the gradient of the other is zero.
    real = chainer.Variable(numpy.array([1., 2., 3.]))
    imag = chainer.Variable(numpy.array([0., 1., 0.]))
    yr, _ = F.fft((real, imag))
    F.sum(yr).backward()
    # sum_k Re(y_k) = n * Re(x_0)
    numpy.testing.assert_allclose(real.grad, [3., 0., 0.], atol=1e-12)
    numpy.testing.assert_allclose(imag.grad, [0., 0., 0.], atol=1e-12)


@pytest.mark.parametrize('real, imag', [
    (numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float64)),
    (numpy.ones(3, numpy.float32), numpy.ones(2, numpy.float32)),
    (numpy.ones(3, numpy.int32), numpy.ones(3, numpy.int32)),
    (numpy.ones((), numpy.float32), numpy.ones((), numpy.float32)),
], ids=['dtype', 'shape', 'integer', 'zero_dim'])
def test_bad_input(real, imag):
    with pytest.raises(type_check.InvalidType):
        F.fft((real, imag))
