import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (2, 7, 3), 'ios': 1, 'axis': 1},
        {'shape': (2, 6, 3), 'ios': 3, 'axis': 1},
        {'shape': (2, 7, 3), 'ios': [2, 5], 'axis': 1},
        {'shape': (2, 7, 3), 'ios': (2, 5), 'axis': -2},
        {'shape': (2, 7, 3), 'ios': numpy.array([2, 5]), 'axis': 1},
        {'shape': (2, 7, 3), 'ios': [0, 2, 2, 7], 'axis': 1},
        {'shape': (2, 7, 3), 'ios': [], 'axis': 1},
        {'shape': (6, 3), 'ios': [1], 'axis': -1},
        {'shape': (6,), 'ios': 2, 'axis': 0},
        {'shape': (0, 3), 'ios': 1, 'axis': 0},
    ],
    [
        {'dtype': numpy.float16},
        {'dtype': numpy.float32},
        {'dtype': numpy.float64},
    ],
))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSplitAxis(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.split_axis(x, self.ios, self.axis)

    def forward_expected(self, inputs):
        x, = inputs
        return tuple(numpy.split(x, self.ios, self.axis))


def test_outputs_are_views():
    x = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    ys = F.split_axis(chainer.Variable(x), 2, 1)
    assert type(ys[0].creator).__name__ == 'SplitAxis'
    assert all(numpy.shares_memory(x, y.array) for y in ys)


def test_force_tuple():
    x = numpy.zeros((2, 3), numpy.float32)
    ys = F.split_axis(x, 1, 1)
    assert isinstance(ys, tuple) and len(ys) == 1
    y = F.split_axis(x, 1, 1, force_tuple=False)
    assert isinstance(y, chainer.Variable)
    assert isinstance(F.split_axis(x, 3, 1, force_tuple=False), tuple)


def test_unused_outputs_get_zero_gradient():
    x = chainer.Variable(numpy.ones((2, 6), numpy.float32))
    a, b, c = F.split_axis(x, 3, 1)
    F.sum(b * 2).backward()
    numpy.testing.assert_array_equal(
        x.grad, [[0, 0, 2, 2, 0, 0], [0, 0, 2, 2, 0, 0]])


@pytest.mark.parametrize('shape, ios, axis', [
    ((2, 7), 3, 1),
    ((2, 6), [2, 8], 1),
    ((2, 6), 2, 2),
    ((2, 6), 2, -3),
    ((), 1, 0),
], ids=['sections', 'index', 'axis', 'negative_axis', 'zero_dim'])
def test_invalid(shape, ios, axis):
    with pytest.raises(type_check.InvalidType):
        F.split_axis(numpy.zeros(shape, numpy.float32), ios, axis)


@pytest.mark.parametrize('ios', [
    1.5, numpy.array([1.5]), numpy.array([[1, 2]]), None,
], ids=['float', 'float_array', 'two_dim_array', 'none'])
def test_invalid_indices_or_sections(ios):
    with pytest.raises(TypeError):
        F.split_axis(numpy.zeros((2, 6), numpy.float32), ios, 1)


def test_unsorted_indices_in_debug_mode():
    x = numpy.zeros((2, 6), numpy.float32)
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='sorted'):
            F.split_axis(x, [3, 1], 1)
