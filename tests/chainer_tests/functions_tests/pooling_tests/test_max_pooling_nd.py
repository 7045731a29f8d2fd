import itertools

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.pooling import max_pooling_nd
from chainer import gradient_check
from chainer import testing
from chainer.utils import type_check


def _as_tuple(v, n):
    return tuple(v) if isinstance(v, tuple) else (v,) * n


def _out_size(size, k, s, p, cover_all):
    return (size + 2 * p - k + (s - 1 if cover_all else 0)) // s + 1


def _reference(x, ksize, stride, pad, cover_all):
    # Max and flat in-window index of the first maximum, window by window.
    ndim = x.ndim - 2
    ksize, pad = _as_tuple(ksize, ndim), _as_tuple(pad, ndim)
    stride = ksize if stride is None else _as_tuple(stride, ndim)
    outs = [_out_size(d, k, s, p, cover_all)
            for d, k, s, p in zip(x.shape[2:], ksize, stride, pad)]
    padded = numpy.full(x.shape[:2] + tuple(
        d + 2 * p + s + k for d, p, s, k
        in zip(x.shape[2:], pad, stride, ksize)), -numpy.inf)
    padded[(slice(None), slice(None)) + tuple(
        slice(p, p + d) for p, d in zip(pad, x.shape[2:]))] = x
    y = numpy.empty(x.shape[:2] + tuple(outs), x.dtype)
    indexes = numpy.empty(y.shape, numpy.intp)
    for pos in itertools.product(*[range(o) for o in outs]):
        window = padded[(slice(None), slice(None)) + tuple(
            slice(i * s, i * s + k) for i, s, k in zip(pos, stride, ksize))]
        window = window.reshape(x.shape[:2] + (-1,))
        y[(slice(None), slice(None)) + pos] = window.max(axis=2)
        indexes[(slice(None), slice(None)) + pos] = window.argmax(axis=2)
    return y, indexes


def _distinct_values(shape, dtype):
    # Values 0.125 apart: no ties, and exact in float16.
    x = numpy.random.permutation(int(numpy.prod(shape))).reshape(shape)
    return ((x - x.size / 2) / 8).astype(dtype)


# x shape, ksize, stride, pad, cover_all
CASES = [
    ((2, 3, 7), 3, 2, 1, True),
    ((2, 3, 4, 6), 2, None, 0, True),
    ((2, 3, 5, 6), 3, 2, 1, True),
    ((2, 3, 5, 6), 3, 2, 1, False),
    ((1, 2, 5, 7), (3, 2), (1, 3), (1, 0), True),
    ((1, 2, 6, 6), 4, 3, 1, True),
    ((1, 2, 4, 3, 4), 2, 1, (1, 0, 1), True),
    ((1, 2, 3, 4, 2, 3), 2, None, 0, False),
]


@testing.parameterize(*testing.product({
    'case': CASES,
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMaxPoolingND(testing.FunctionTestCase):

    def setUp(self):
        (self.x_shape, self.ksize, self.stride, self.pad,
         self.cover_all) = self.case
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
        self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        return _distinct_values(self.x_shape, self.dtype),

    def forward(self, inputs, device):
        ndim = len(self.x_shape) - 2
        func = {1: F.max_pooling_1d, 2: F.max_pooling_2d,
                3: F.max_pooling_3d}.get(ndim, F.max_pooling_nd)
        return func(inputs[0], self.ksize, self.stride, self.pad,
                    self.cover_all),

    def forward_expected(self, inputs):
        y, _ = _reference(inputs[0], self.ksize, self.stride, self.pad,
                          self.cover_all)
        return y,


@pytest.mark.parametrize('case', CASES, ids=range(len(CASES)))
def test_return_indices(case):
    x_shape, ksize, stride, pad, cover_all = case
    x = numpy.random.RandomState(0).randint(0, 3, x_shape).astype(
        numpy.float32)  # many ties: the first maximum wins
    y, indexes = F.max_pooling_nd(x, ksize, stride, pad, cover_all,
                                  return_indices=True)
    expected_y, expected_indexes = _reference(x, ksize, stride, pad,
                                              cover_all)
    numpy.testing.assert_array_equal(y.array, expected_y)
    assert indexes.dtype == numpy.intp
    numpy.testing.assert_array_equal(indexes, expected_indexes)


def test_gradient_goes_to_the_first_maximum():
    x = chainer.Variable(numpy.array([[[1., 3., 3., 0.]]], numpy.float32))
    y = F.max_pooling_1d(x, 2)
    assert type(y.creator) is max_pooling_nd.MaxPoolingND
    assert y.creator.label == 'MaxPoolingND'
    y.grad = numpy.array([[[5., 7.]]], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[[0., 5., 7., 0.]]])


def test_overlapping_windows_sum_their_gradients():
    x = chainer.Variable(numpy.array([[[0., 5., 1., 2.]]], numpy.float32))
    y = F.max_pooling_1d(x, 3, stride=1, cover_all=False)
    y.grad = numpy.array([[[1., 2.]]], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[[0., 3., 0., 0.]]])


def test_triple_backward():
    x = _distinct_values((1, 2, 4, 4), numpy.float64)
    gy = numpy.random.RandomState(0).uniform(-1, 1, (1, 2, 2, 2))
    ggx = numpy.random.RandomState(1).uniform(-1, 1, x.shape)

    def f(x):
        y = F.max_pooling_2d(x, 2)
        return y * y
    gradient_check.check_double_backward(f, x, gy, ggx)


def test_node_attributes():
    y = F.max_pooling_2d(chainer.Variable(numpy.ones((1, 1, 5, 5), 'f')),
                         (3, 2), stride=2, pad=(1, 0))
    node = y.creator
    assert node.ksize == (3, 2) and node.stride == (2, 2)
    assert node.pad == (1, 0) and node.cover_all is True
    assert node.ndim == 2


@pytest.mark.parametrize('func, shape', [
    (F.max_pooling_1d, (1, 2, 3, 3)),
    (F.max_pooling_2d, (1, 2, 3)),
    (F.max_pooling_3d, (1, 2, 3, 3)),
])
def test_wrong_number_of_spatial_axes(func, shape):
    with pytest.raises(ValueError, match='should be'):
        func(numpy.ones(shape, numpy.float32), 2)


@pytest.mark.parametrize('shape, dtype', [
    ((1, 2, 4, 4), numpy.int32), ((0, 2, 4, 4), numpy.float32)],
    ids=['int', 'empty'])
def test_invalid_input(shape, dtype):
    with pytest.raises(type_check.InvalidType):
        F.max_pooling_2d(numpy.ones(shape, dtype), 2)


def test_output_too_small():
    with pytest.raises(AssertionError, match='positive'):
        F.max_pooling_2d(numpy.ones((1, 1, 2, 2), numpy.float32), 3,
                         cover_all=False)
