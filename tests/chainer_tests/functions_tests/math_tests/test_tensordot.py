import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


CASES = [
    ((5, 3, 2), (3, 2, 4), 2),
    ((5, 3, 2), (2, 4), 1),
    ((2, 3), (4, 5), 0),
    ((3, 2), (3, 2), 2),
    ((5, 3, 2), (4, 3, 2), ([1, 2], [1, 2])),
    ((5, 3, 2), (2, 4, 3), ([1, 2], [2, 0])),
    ((3, 5, 2), (4, 2, 3), ((2, 0), (1, 2))),
    ((3, 5), (4, 3), (0, 1)),
    ((3, 5), (4, 3), ([-2], [-1])),
    ((), (2, 3), 0),
    ((0, 3), (3, 2), 1),
]


@testing.parameterize(*testing.product({
    'case': CASES,
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTensorDot(testing.FunctionTestCase):

    def setUp(self):
        self.a_shape, self.b_shape, self.axes = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, self.a_shape)
        b = numpy.random.uniform(-1, 1, self.b_shape)
        return numpy.asarray(a, self.dtype), numpy.asarray(b, self.dtype)

    def forward(self, inputs, device):
        a, b = inputs
        return F.tensordot(a, b, axes=self.axes),

    def forward_expected(self, inputs):
        a, b = inputs
        y = numpy.tensordot(a.astype(numpy.float64), b.astype(numpy.float64),
                            axes=self.axes)
        return numpy.asarray(y, self.dtype),


def test_mixed_dtypes():
    a = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    b = chainer.Variable(numpy.ones((3, 4), numpy.float64))
    y = F.tensordot(a, b, axes=1)
    assert y.dtype == numpy.float64
    assert type(y.creator).__name__ == 'TensorDot'
    y.grad = numpy.ones((2, 4))
    y.backward()
    assert a.grad.dtype == numpy.float32
    assert b.grad.dtype == numpy.float64


@pytest.mark.parametrize('axes, error, match', [
    (2, ValueError, 'shape mismatch'),
    (3, ValueError, 'greater equal to dot-axes count'),
    ((1,), ValueError, 'pair of sequence'),
    (([1, 0], [0]), ValueError, 'axes count mismatch'),
    (1.0, TypeError, 'pair of sequence of integers or an integer'),
], ids=['mismatch', 'too_many', 'not_pair', 'count', 'type'])
def test_bad_axes(axes, error, match):
    a = numpy.ones((2, 3), numpy.float32)
    b = numpy.ones((3, 4), numpy.float32)
    with pytest.raises(error, match=match):
        F.tensordot(a, b, axes=axes)


def test_integer_input():
    a = numpy.ones((2, 3), numpy.int32)
    with pytest.raises(type_check.InvalidType):
        F.tensordot(a, a.T, axes=1)
