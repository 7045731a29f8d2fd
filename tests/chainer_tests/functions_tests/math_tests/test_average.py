import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


def _tolerances(test, dtype):
    if dtype == numpy.float16:
        test.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
        test.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
        test.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
    else:
        test.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
        test.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}


@testing.parameterize(*testing.product({
    'shape_axis': [
        ((3, 2, 4), None), ((3, 2, 4), 0), ((3, 2, 4), 1), ((3, 2, 4), -1),
        ((3, 2, 4), (0, 2)), ((3, 2, 4), (2, 0, 1)), ((), None),
        ((0, 3), 1),
    ],
    'keepdims': [False, True],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMean(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        _tolerances(self, self.dtype)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.mean(x, axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        x, = inputs
        y = x.astype(numpy.float64).mean(axis=self.axis,
                                         keepdims=self.keepdims)
        return numpy.asarray(y, self.dtype),


@testing.parameterize(*testing.product({
    'shape_axis': [
        ((3, 4), None, (3, 4)), ((3, 4), None, (4,)),
        ((3, 4), 0, (3,)), ((3, 4), 1, (4,)), ((2, 3, 4), -2, (3,)),
        ((2, 3, 4), (1,), (3,)),
    ],
    'keepdims': [False, True],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestWeightedAverage(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis, self.w_shape = self.shape_axis
        _tolerances(self, self.dtype)
        if self.dtype == numpy.float16:
            self.check_double_backward_options['atol'] = 5e-2

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        w = numpy.random.uniform(1, 2, self.w_shape).astype(self.dtype)
        return x, w

    def forward(self, inputs, device):
        x, w = inputs
        return F.average(x, axis=self.axis, weights=w,
                         keepdims=self.keepdims),

    def forward_expected(self, inputs):
        x, w = inputs
        axis = self.axis
        if isinstance(axis, tuple):
            axis, = axis
        x64 = x.astype(numpy.float64)
        w64 = w.astype(numpy.float64)
        if axis is None:
            # Weights that broadcast to x are summed unbroadcast, as in
            # the original.
            y = (x64 * w64).sum() / w64.sum()
        else:
            y = numpy.average(x64, axis=axis, weights=w64)
        if self.keepdims:
            y = numpy.expand_dims(y, tuple(range(x.ndim)) if axis is None
                                  else axis)
        return numpy.asarray(y, self.dtype),


def test_mean_is_average():
    assert F.mean is F.average


def test_classes():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    assert type(F.average(x).creator).__name__ == 'Mean'
    w = numpy.ones(3, numpy.float32)
    y = F.average(x, axis=1, weights=w)
    assert y.creator.label == '_ / _'


def test_variable_mean():
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    numpy.testing.assert_allclose(x.mean().array, 2.5)
    y = x.mean(axis=1, weights=numpy.array([1, 2, 3], numpy.float32),
               keepdims=True)
    numpy.testing.assert_allclose(y.array, [[8 / 6], [26 / 6]], rtol=1e-6)


def test_weighted_gradient_reaches_weights():
    x = chainer.Variable(numpy.array([[1., 2., 3.]], numpy.float32))
    w = chainer.Variable(numpy.array([1., 1., 2.], numpy.float32))
    y = F.average(x, axis=1, weights=w)
    y.grad = numpy.ones(1, numpy.float32)
    y.backward()
    # d/dw_i of sum(w x) / sum(w) = (x_i - y) / sum(w)
    numpy.testing.assert_allclose(w.grad, (x.array[0] - 2.25) / 4,
                                  rtol=1e-6)


def test_zero_weights_give_nan():
    x = numpy.ones((2, 3), numpy.float32)
    with numpy.errstate(invalid='ignore'):
        y = F.average(x, axis=1, weights=numpy.zeros(3, numpy.float32))
    assert numpy.isnan(y.array).all()


@pytest.mark.parametrize('axis', [2, -3, (0, 2)], ids=str)
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType):
        F.average(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_integer_input():
    with pytest.raises(type_check.InvalidType):
        F.average(numpy.ones((2, 3), numpy.int32))


def test_duplicate_axis():
    with pytest.raises(ValueError, match='duplicate value in axis'):
        F.average(numpy.ones((2, 3), numpy.float32), axis=(0, 0))


@pytest.mark.parametrize('axis', [[0], 1.0, numpy.int64(0)],
                         ids=['list', 'float', 'numpy_int'])
def test_bad_axis_type(axis):
    with pytest.raises(TypeError, match='None, int or tuple of int'):
        F.average(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_empty_reduction():
    with pytest.raises(ZeroDivisionError):
        F.average(numpy.ones((0, 3), numpy.float32), axis=0)


def test_tuple_axis_with_weights():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='tuple axis is not supported'):
        F.average(x, axis=(0, 1), weights=x)


@pytest.mark.parametrize('axis, w_shape', [(0, (3,)), (1, (2, 3))],
                         ids=['wrong_length', 'not_1d'])
def test_bad_weights_shape(axis, w_shape):
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.average(x, axis=axis, weights=numpy.ones(w_shape, numpy.float32))


def test_weights_dtype_mismatch():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.average(x, axis=1, weights=numpy.ones(3, numpy.float64))
