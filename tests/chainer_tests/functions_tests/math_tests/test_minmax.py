import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


SHAPE_AXES = [
    ((3, 2, 4), None), ((3, 2, 4), 0), ((3, 2, 4), 1), ((3, 2, 4), -1),
    ((3, 2, 4), (0, 2)), ((3, 2, 4), (2, 1, 0)), ((), None),
]


@testing.parameterize(*testing.product({
    'function': ['max', 'min'],
    'shape_axis': SHAPE_AXES,
    'keepdims': [False, True],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMaxMin(testing.FunctionTestCase):

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        # Distinct values far apart, so that the selected element does not
        # change under the numerical gradient's perturbation.
        size = int(numpy.prod(self.shape))
        x = numpy.random.permutation(size).reshape(self.shape) * 0.1 - 1
        return numpy.asarray(x, self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        f = getattr(F, self.function)
        return f(x, axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        x, = inputs
        f = numpy.amax if self.function == 'max' else numpy.amin
        return numpy.asarray(f(x, axis=self.axis, keepdims=self.keepdims)),


@pytest.mark.parametrize('function, expected', [
    ('max', [0., 1., 1., 0.]), ('min', [1., 0., 0., 1.])])
def test_ties_all_get_gradient(function, expected):
    x = chainer.Variable(numpy.array([1., 3., 3., 1.], numpy.float32))
    getattr(F, function)(x).backward()
    numpy.testing.assert_array_equal(x.grad, expected)


def test_tied_maxima_share_full_gradient():
    x = chainer.Variable(numpy.array([[1., 3.], [3., 3.]], numpy.float32))
    y = F.max(x, axis=1)
    y.grad = numpy.array([2., 5.], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0., 2.], [5., 5.]])


def test_classes():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    assert type(F.max(x).creator).__name__ == 'Max'
    assert type(F.min(x).creator).__name__ == 'Min'
    assert type(F.argmax(x).creator).__name__ == 'ArgMax'
    assert type(F.argmin(x).creator).__name__ == 'ArgMin'


@pytest.mark.parametrize('function', ['max', 'min'])
@pytest.mark.parametrize('axis', [2, -3, (0, 2)], ids=str)
def test_axis_out_of_range(function, axis):
    with pytest.raises(type_check.InvalidType):
        getattr(F, function)(numpy.ones((2, 3), numpy.float32), axis=axis)


@pytest.mark.parametrize('function', ['max', 'min', 'argmax', 'argmin'])
def test_integer_input(function):
    with pytest.raises(type_check.InvalidType):
        getattr(F, function)(numpy.ones((2, 3), numpy.int32))


@pytest.mark.parametrize('function', ['max', 'min'])
def test_axis_errors(function):
    x = numpy.ones((2, 3), numpy.float32)
    f = getattr(F, function)
    with pytest.raises(ValueError, match='duplicate value in axis'):
        f(x, axis=(1, 1))
    with pytest.raises(TypeError, match='None, int or tuple of int'):
        f(x, axis=[0])


@testing.parameterize(*testing.product({
    'function': ['argmax', 'argmin'],
    'shape_axis': [((3, 2, 4), None), ((3, 2, 4), 0), ((3, 2, 4), -1),
                   ((), None), ((0, 3), 1)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestArgMaxArgMin(testing.FunctionTestCase):

    skip_backward_test = True
    skip_double_backward_test = True

    def setUp(self):
        self.shape, self.axis = self.shape_axis

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return getattr(F, self.function)(x, axis=self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        f = numpy.argmax if self.function == 'argmax' else numpy.argmin
        return numpy.asarray(f(x, axis=self.axis), numpy.int32),


@pytest.mark.parametrize('function', ['argmax', 'argmin'])
def test_index_not_differentiable(function):
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = getattr(F, function)(x, axis=1)
    assert y.dtype == numpy.int32
    assert y.shape == (2,)


@pytest.mark.parametrize('function', ['argmax', 'argmin'])
@pytest.mark.parametrize('axis', [(0,), [0], numpy.int64(0)],
                         ids=['tuple', 'list', 'numpy_int'])
def test_index_axis_type(function, axis):
    with pytest.raises(TypeError, match='None or int are required'):
        getattr(F, function)(numpy.ones((2, 3), numpy.float32), axis=axis)


@pytest.mark.parametrize('function', ['argmax', 'argmin'])
@pytest.mark.parametrize('axis', [2, -3], ids=str)
def test_index_axis_out_of_range(function, axis):
    with pytest.raises(type_check.InvalidType):
        getattr(F, function)(numpy.ones((2, 3), numpy.float32), axis=axis)
