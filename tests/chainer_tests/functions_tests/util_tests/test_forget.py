import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.functions.util import forget


def _f(a, b):
    return (a + b) * a


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestForget(testing.FunctionTestCase):

    skip_double_backward_test = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, (3, 4)).astype(self.dtype)
        b = numpy.random.uniform(-1, 1, (3, 4)).astype(self.dtype)
        return a, b

    def forward(self, inputs, device):
        return F.forget(_f, *inputs),

    def forward_expected(self, inputs):
        a, b = inputs
        return numpy.asarray((a + b) * a, a.dtype),


def test_graph_of_func_is_not_kept():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    y = F.forget(lambda v: F.exp(v * 2) + 1, x)
    assert type(y.creator) is forget.Forget
    assert y.creator.inputs[0] is x.node


def test_in_recomputing_flag_and_calls():
    flags = []

    def f(v):
        flags.append((chainer.config.in_recomputing,
                      chainer.config.enable_backprop))
        return v * 3

    x = chainer.Variable(numpy.ones(3, numpy.float32))
    y = F.forget(f, x)
    assert flags == [(False, False)]
    F.sum(y).backward()
    assert flags == [(False, False), (True, True)]
    numpy.testing.assert_array_equal(x.grad, [3, 3, 3])
    assert chainer.config.in_recomputing is False


def test_tuple_outputs_and_arrays():
    a = numpy.array([1., 2.], numpy.float32)
    b = numpy.array([3., 4.], numpy.float32)
    y, z = F.forget(lambda p, q: (p * q, p + q), a, b)
    numpy.testing.assert_array_equal(y.array, [3., 8.])
    numpy.testing.assert_array_equal(z.array, [4., 6.])

    def f(p, q):
        return F.forget(lambda s, t: (s * t, s + t), p, q)

    gradient_check.check_backward(
        f, (a.astype(numpy.float64), b.astype(numpy.float64)),
        (numpy.array([1., -1.]), numpy.array([0.5, 2.])))


def test_one_output_without_gradient():
    x = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    y, z = F.forget(lambda v: (v * 2, v * 3), x)
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [2., 2.])


def test_parameters_used_inside_get_gradients():
    w = chainer.Parameter(numpy.array([2., 3.], numpy.float32))
    x = chainer.Variable(numpy.array([1., 5.], numpy.float32))
    y = F.forget(lambda v: v * w, x)
    F.sum(y).backward()
    numpy.testing.assert_array_equal(w.grad, [1., 5.])
    numpy.testing.assert_array_equal(x.grad, [2., 3.])


def test_double_backprop_refused():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    y = F.forget(lambda v: v * v, x)
    with pytest.raises(RuntimeError, match='double backpropagation'):
        chainer.grad([F.sum(y)], [x], enable_double_backprop=True)


def test_func_must_be_callable():
    with pytest.raises(TypeError, match='func must be callable'):
        F.forget(1, numpy.ones(2, numpy.float32))


def test_func_must_return_variables():
    x = numpy.ones(2, numpy.float32)
    with pytest.raises(RuntimeError, match='A tuple of Variables or a '
                                           'Variable are expected'):
        F.forget(lambda v: v.array, x)
    with pytest.raises(RuntimeError, match='2nd element of a returned '
                                           'tuple is not Variable'):
        F.forget(lambda v: (v, v.array), x)
