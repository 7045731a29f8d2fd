import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape_pad_mode_keywords': [
        ((3, 4), 1, 'constant', {}),
        ((3, 4), (1, 2), 'constant', {}),
        ((3, 4), ((1, 2),), 'constant', {'constant_values': 2}),
        ((3, 4), ((0, 1), (2, 0)), 'constant', {}),
        ((2, 3, 4), [[1, 0], [0, 0], [2, 1]], 'constant', {}),
        ((3,), 0, 'constant', {}),
        ((0, 3), 1, 'constant', {}),
        ((3, 4), 2, 'edge', {}),
        ((3, 4), ((1, 2), (2, 3)), 'reflect', {}),
        ((3, 4), ((3, 0), (2, 5)), 'symmetric', {}),
        ((3, 4), ((4, 1), (2, 6)), 'wrap', {}),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPad(testing.FunctionTestCase):

    def setUp(self):
        (self.shape, self.pad_width, self.mode,
         self.keywords) = self.shape_pad_mode_keywords
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.pad(x, self.pad_width, self.mode, **self.keywords),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.pad(x, self.pad_width, self.mode, **self.keywords),


def test_class():
    y = F.pad(chainer.Variable(numpy.zeros((2,), numpy.float32)), 1,
              'constant')
    assert type(y.creator).__name__ == 'Pad'
    assert y.shape == (4,)


def test_gradient_of_copying_mode():
    # Each padded element sends its gradient to the element it copies.
    x = chainer.Variable(numpy.zeros((3,), numpy.float32))
    y = F.pad(x, (2, 1), 'edge')
    y.grad = numpy.arange(1, 7, dtype=numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [1 + 2 + 3, 4, 5 + 6])


def test_gradient_of_computing_mode():
    # Values computed from the input: the gradient flows through the
    # unpadded part only.
    x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    y = F.pad(x, 1, 'maximum')
    numpy.testing.assert_array_equal(y.array, [2, 0, 1, 2, 2])
    y.grad = numpy.arange(1, 6, dtype=numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [2, 3, 4])


def test_odd_reflection():
    x = chainer.Variable(numpy.array([1, 2, 4], numpy.float32))
    y = F.pad(x, 1, 'reflect', reflect_type='odd')
    numpy.testing.assert_array_equal(
        y.array, numpy.pad(x.array, 1, 'reflect', reflect_type='odd'))
    y.grad = numpy.ones(5, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [1, 1, 1])


def test_integer_input():
    with pytest.raises(type_check.InvalidType):
        F.pad(numpy.zeros((2,), numpy.int32), 1, 'constant')
