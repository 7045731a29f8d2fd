import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import clip
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'bounds': [(-0.75, 0.75), (None, 0.5), (-0.5, None), (-2., 2.)],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestClip(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_double_backward_options = {'atol': 5e-3, 'rtol': 5e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        # Keep away from the kinks at the bounds.
        for bound in self.bounds:
            if bound is not None:
                x = numpy.where(numpy.abs(x - bound) < 0.1, bound + 0.2, x)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        x_min, x_max = self.bounds
        return F.clip(inputs[0], x_min, x_max),

    def forward_expected(self, inputs):
        x, = inputs
        x_min, x_max = self.bounds
        return numpy.asarray(numpy.clip(x, x_min, x_max), x.dtype),


def test_gradient_at_bounds_is_one():
    x = chainer.Variable(numpy.array([-2., -1., 0., 1., 2.], numpy.float32))
    y = F.clip(x, -1., 1.)
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [0, 1, 1, 1, 0])


def test_second_order_gradient_is_masked():
    x = chainer.Variable(numpy.array([-2., 0., 2.], numpy.float64))
    y = F.clip(x, -1., 1.)
    gy = chainer.Variable(numpy.ones(3))
    gx, = chainer.grad([y], [x], grad_outputs=[gy],
                       enable_double_backprop=True)
    assert type(gx.creator) is clip.ClipGrad
    ggy, = chainer.grad([F.sum(gx * numpy.array([1., 2., 3.]))], [gy])
    numpy.testing.assert_array_equal(ggy.array, [0, 2, 0])


def test_label():
    y = F.clip(chainer.Variable(numpy.ones((2,), numpy.float32)), 0., 1.)
    assert type(y.creator) is clip.Clip
    assert y.creator.label == 'Clip'


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_keeps_dtype_with_numpy_scalar_bounds(dtype):
    x = numpy.array([-3., 0.5, 3.], dtype)
    y = F.clip(x, numpy.float64(-1), numpy.float64(1))
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, [-1, 0.5, 1])


def test_no_bounds():
    with pytest.raises(ValueError, match='must set either max or min'):
        F.clip(numpy.ones((2,), numpy.float32), None, None)


@pytest.mark.parametrize('bounds', [(1., 0.), (1., 1.)], ids=['gt', 'eq'])
def test_bad_order(bounds):
    with pytest.raises(ValueError, match='x_min must be less than x_max'):
        F.clip(numpy.ones((2,), numpy.float32), *bounds)


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.clip(numpy.ones((2,), numpy.int32), 0, 1)
