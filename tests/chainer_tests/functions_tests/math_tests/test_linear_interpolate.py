import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.functions.math import linear_interpolate
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (), (0, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLinearInterpolate(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        p = numpy.random.uniform(0, 1, self.shape).astype(self.dtype)
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        y = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return p, x, y

    def forward(self, inputs, device):
        return F.linear_interpolate(*inputs),

    def forward_expected(self, inputs):
        p, x, y = [a.astype(numpy.float64) for a in inputs]
        return numpy.asarray(p * x + (1 - p) * y, self.dtype),


def test_label_and_grad_node():
    p, x, y = (chainer.Variable(numpy.full((2,), v, numpy.float32))
               for v in (0.25, 1., 3.))
    z = F.linear_interpolate(p, x, y)
    assert type(z.creator) is linear_interpolate.LinearInterpolate
    assert z.creator.label == 'LinearInterpolate'
    gp, gx, gy = chainer.grad([z], [p, x, y],
                              grad_outputs=[numpy.ones(2, numpy.float32)],
                              enable_double_backprop=True)
    assert type(gp.creator) is linear_interpolate.LinearInterpolateGrad
    numpy.testing.assert_allclose(gp.array, [-2, -2])
    numpy.testing.assert_allclose(gx.array, [0.25, 0.25])
    numpy.testing.assert_allclose(gy.array, [0.75, 0.75])


@pytest.mark.parametrize('target', [0, 1, 2])
def test_second_order_with_one_grad_given(target):
    # Only one of the three gradients is differentiated further.
    rng = numpy.random.RandomState(1)
    inputs = tuple(rng.uniform(-1, 1, (3,)) for _ in range(3))
    gz = rng.uniform(-1, 1, (3,))
    gg = rng.uniform(-1, 1, (3,))

    def first_grad(p, x, y):
        z = F.linear_interpolate(p, x, y)
        g, = chainer.grad([z], [(p, x, y)[target]], grad_outputs=[gz],
                          enable_double_backprop=True)
        return g

    gradient_check.check_backward(first_grad, inputs, gg)


@pytest.mark.parametrize('shapes', [
    ((2,), (2,), (3,)), ((2,), (3,), (2,)), ((1,), (2,), (2,)),
], ids=['y', 'x', 'p'])
def test_shape_mismatch(shapes):
    arrays = [numpy.ones(s, numpy.float32) for s in shapes]
    with pytest.raises(type_check.InvalidType):
        F.linear_interpolate(*arrays)


@pytest.mark.parametrize('dtypes', [
    (numpy.float32, numpy.float32, numpy.float64),
    (numpy.float32, numpy.float64, numpy.float32),
    (numpy.int32, numpy.int32, numpy.int32),
], ids=['y', 'x', 'int'])
def test_invalid_dtype(dtypes):
    arrays = [numpy.ones((2,), d) for d in dtypes]
    with pytest.raises(type_check.InvalidType):
        F.linear_interpolate(*arrays)
