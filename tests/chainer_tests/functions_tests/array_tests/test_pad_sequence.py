import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'lengths_unit_length': [
        ((3, 1, 2), (), None), ((3, 1, 2), (2,), 5), ((2, 0, 2), (2, 3), None),
        ((4,), (), 4), ((0, 0), (2,), None), ((0, 0), (), 2),
    ],
    'padding': [0, -1.5],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPadSequence(testing.FunctionTestCase):

    def setUp(self):
        self.lengths, self.unit, self.length = self.lengths_unit_length
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return tuple(
            numpy.random.uniform(-1, 1, (n,) + self.unit).astype(self.dtype)
            for n in self.lengths)

    def forward(self, inputs, device):
        return F.pad_sequence(inputs, self.length, self.padding),

    def forward_expected(self, inputs):
        length = self.length
        if length is None:
            length = max(self.lengths)
        y = numpy.full((len(inputs), length) + self.unit, self.padding,
                       self.dtype)
        for i, x in enumerate(inputs):
            y[i, :len(x)] = x
        return y,


def test_class():
    xs = [chainer.Variable(numpy.zeros((n,), numpy.float32)) for n in (2, 1)]
    y = F.pad_sequence(xs)
    assert type(y.creator).__name__ == 'PadSequence'
    numpy.testing.assert_array_equal(y.array, [[0, 0], [0, 0]])


def test_integer_sequences():
    xs = [numpy.array([1, 2, 3]), numpy.array([4])]
    y = F.pad_sequence(xs, padding=-1)
    assert y.dtype == xs[0].dtype
    numpy.testing.assert_array_equal(y.array, [[1, 2, 3], [4, -1, -1]])


@pytest.mark.parametrize('shapes, length', [
    ([(3, 2), (2, 3)], None),
    ([(3,), ()], None),
    ([(3,), (2,)], 2),
], ids=['unit_shape', 'zero_dim', 'too_long'])
def test_invalid(shapes, length):
    xs = [numpy.zeros(s, numpy.float32) for s in shapes]
    with pytest.raises(type_check.InvalidType):
        F.pad_sequence(xs, length)


def test_invalid_dtype():
    xs = [numpy.zeros((2,), numpy.float32), numpy.zeros((2,), numpy.float64)]
    with pytest.raises(type_check.InvalidType):
        F.pad_sequence(xs)


def test_no_inputs():
    with pytest.raises(type_check.InvalidType):
        F.pad_sequence([])


@pytest.mark.parametrize('dtype, padding, expected', [
    (numpy.uint8, -1, 255),
    (numpy.uint16, -1, 65535),
    (numpy.uint32, -1, 2 ** 32 - 1),
    (numpy.uint64, -1, 2 ** 64 - 1),
    (numpy.uint64, 2 ** 63, 2 ** 63),
    (numpy.int8, 300, 44),
    (numpy.uint8, -129, 127),
    (numpy.int32, 2 ** 40, 0),
    (numpy.uint8, -1.5, 255),
    (numpy.int8, 1.7, 1),
    (numpy.int16, numpy.int64(-1), -1),
    (numpy.uint8, numpy.int64(-1), 255),
    (numpy.bool_, -1, True),
    (numpy.float16, -1, -1),
], ids=str)
def test_integer_padding_wraps_around(dtype, padding, expected):
    # As with NumPy 1: an out-of-range padding wraps around in the dtype.
    xs = [numpy.array([1, 1], dtype), numpy.array([1], dtype)]
    y = F.pad_sequence(xs, padding=padding)
    assert y.dtype == dtype
    assert int(y.array[1, 1]) == int(expected)
    numpy.testing.assert_array_equal(y.array[:, 0], [1, 1])


@pytest.mark.parametrize('dtype, padding, error', [
    (numpy.int32, float('inf'), OverflowError),
    (numpy.uint8, float('nan'), ValueError),
    (numpy.int64, 2 ** 63, OverflowError),
    (numpy.uint64, 2 ** 64, OverflowError),
    (numpy.int8, -2 ** 63 - 1, OverflowError),
], ids=str)
def test_integer_padding_out_of_c_long(dtype, padding, error):
    xs = [numpy.array([1, 1], dtype), numpy.array([1], dtype)]
    with pytest.raises(error):
        F.pad_sequence(xs, padding=padding)
