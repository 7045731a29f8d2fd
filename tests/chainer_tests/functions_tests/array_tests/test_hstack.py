import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shapes': [[(3,)], [(3,), (2,)], [(), ()], [()], [(2, 3)],
               [(2, 3), (2, 1)], [(2, 1, 4), (2, 3, 4), (2, 0, 4)]],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestHstack(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype)
                     for s in self.shapes)

    def forward(self, inputs, device):
        return F.hstack(inputs),

    def forward_expected(self, inputs):
        return numpy.hstack(inputs),


def test_class():
    xs = [chainer.Variable(numpy.zeros((2, 3, 4), numpy.float32))] * 2
    y = F.hstack(xs)
    assert type(y.creator).__name__ == 'Hstack'
    assert y.shape == numpy.hstack([x.array for x in xs]).shape


@pytest.mark.parametrize('shapes', [
    [(2, 3), (3, 3)],
    [(2, 3), (2, 3, 1)],
    [(2, 3, 4), (2, 3, 5)],
    [(3,), ()],
], ids=str)
def test_invalid_shapes(shapes):
    xs = [numpy.zeros(s, numpy.float32) for s in shapes]
    with pytest.raises(type_check.InvalidType):
        F.hstack(xs)


def test_invalid_dtype():
    xs = [numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3))]
    with pytest.raises(type_check.InvalidType):
        F.hstack(xs)


def test_no_inputs():
    with pytest.raises(type_check.InvalidType):
        F.hstack([])


def test_gradient_of_zero_dim_inputs():
    a = chainer.Variable(numpy.array(1, numpy.float32))
    b = chainer.Variable(numpy.array(2, numpy.float32))
    y = F.hstack((a, b))
    y.grad = numpy.array([3, 4], numpy.float32)
    y.backward()
    assert a.grad.shape == () and a.grad == 3
    assert b.grad.shape == () and b.grad == 4
