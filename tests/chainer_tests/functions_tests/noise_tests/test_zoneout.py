import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.noise import zoneout


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (), (0, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'ratio': [0.0, 0.3, 1.0],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestZoneout(testing.FunctionTestCase):

    def generate_inputs(self):
        h = numpy.random.uniform(-1, 1, self.shape)
        x = numpy.random.uniform(-1, 1, self.shape)
        return numpy.asarray(h, self.dtype), numpy.asarray(x, self.dtype)

    def forward(self, inputs, device):
        # The same flags at each call, for the numerical gradients.
        device.xp.random.seed(7)
        h, x = inputs
        return F.zoneout(h, x, self.ratio),

    def forward_expected(self, inputs):
        h, x = inputs
        numpy.random.seed(7)
        from_x = numpy.random.rand(*self.shape) >= self.ratio
        return numpy.asarray(numpy.where(from_x, x, h), x.dtype),

    def before_test(self, test_name):
        if self.backend_config.use_cuda and test_name == 'test_forward':
            # CuPy draws other numbers than NumPy for the same seed.
            self.skip_forward_test = True


def test_draws_flags_like_numpy():
    rng = numpy.random.RandomState(0)
    h = rng.uniform(-1, 1, (4, 5)).astype(numpy.float32)
    x = rng.uniform(-1, 1, (4, 5)).astype(numpy.float32)
    numpy.random.seed(3)
    y = F.zoneout(chainer.Variable(h), chainer.Variable(x), 0.4)
    numpy.random.seed(3)
    from_x = numpy.random.rand(4, 5) >= 0.4
    numpy.testing.assert_array_equal(y.array, numpy.where(from_x, x, h))
    assert type(y.creator) is zoneout.Zoneout
    y.grad = numpy.ones_like(y.array)
    y.backward()


def test_test_mode_returns_x():
    h = numpy.zeros((2, 3), numpy.float32)
    x = numpy.ones((2, 3), numpy.float32)
    with chainer.using_config('train', False):
        assert F.zoneout(h, x) is x


def test_train_argument_refused():
    x = numpy.ones(2, numpy.float32)
    with pytest.raises(ValueError, match='train argument is not supported'):
        F.zoneout(x, x, train=True)


def test_unknown_argument():
    x = numpy.ones(2, numpy.float32)
    with pytest.raises(TypeError):
        F.zoneout(x, x, foo=True)
