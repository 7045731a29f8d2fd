import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


# (name, index) into an array of shape (4, 3, 2).
SLICES = {
    'int': 1,
    'slice': slice(1, 3),
    'tuple': (1, slice(0, 2), 0),
    'ellipsis': (Ellipsis, 1),
    'newaxis': (None, 1, Ellipsis),
    'int_list': [0, 2, 0],
    'int_array': numpy.array([3, 1, 1, 3]),
    'arrays': (numpy.array([0, 0, 1]), numpy.array([1, 1, 2])),
    'bool_array': numpy.array([True, False, True, True]),
}


def _to_device(index, device):
    if isinstance(index, numpy.ndarray):
        return device.send(index)
    if isinstance(index, tuple):
        return tuple(_to_device(i, device) for i in index)
    return index


@testing.parameterize(*testing.product({
    'name': sorted(SLICES),
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestScatterAdd(testing.FunctionTestCase):

    def setUp(self):
        self.slices = SLICES[self.name]
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, (4, 3, 2)).astype(self.dtype)
        index = self.slices
        if isinstance(index, list):
            index = index,
        b_shape = a[index].shape
        b = numpy.random.uniform(-1, 1, b_shape).astype(self.dtype)
        return a, b

    def forward(self, inputs, device):
        a, b = inputs
        return F.scatter_add(a, _to_device(self.slices, device), b),

    def forward_expected(self, inputs):
        a, b = inputs
        index = self.slices
        if isinstance(index, list):
            index = index,
        y = a.copy()
        numpy.add.at(y, index, b)
        return y,


def test_class_and_repeated_indices():
    a = chainer.Variable(numpy.zeros((3,), numpy.float32))
    b = chainer.Variable(numpy.array([1, 2, 3], numpy.float32))
    y = F.scatter_add(a, [0, 0, 2], b)
    assert type(y.creator).__name__ == 'ScatterAdd'
    numpy.testing.assert_array_equal(y.array, [3, 0, 3])
    y.grad = numpy.array([4, 5, 6], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, [4, 5, 6])
    numpy.testing.assert_array_equal(b.grad, [4, 4, 6])


def test_input_is_not_modified():
    a = numpy.zeros((3,), numpy.float32)
    F.scatter_add(a, 1, numpy.array(1, numpy.float32))
    numpy.testing.assert_array_equal(a, [0, 0, 0])


def test_no_broadcast():
    a = numpy.zeros((3, 2), numpy.float32)
    with pytest.raises(ValueError, match='broadcasting'):
        F.scatter_add(a, 0, numpy.zeros((1,), numpy.float32))


def test_too_many_indices():
    a = numpy.zeros((3,), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.scatter_add(a, (0, 0), numpy.zeros((), numpy.float32))


def test_two_ellipses_in_debug_mode():
    a = numpy.zeros((3,), numpy.float32)
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='Ellipsis'):
            F.scatter_add(a, (Ellipsis, Ellipsis), a)
