import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.functions.math import trigonometric
from chainer.utils import type_check


# name: (NumPy reference, input range, FunctionNode class)
FUNCS = {
    'sin': (numpy.sin, (-3, 3), trigonometric.Sin),
    'cos': (numpy.cos, (-3, 3), trigonometric.Cos),
    'tan': (numpy.tan, (-1.2, 1.2), trigonometric.Tan),
    'arcsin': (numpy.arcsin, (-0.9, 0.9), trigonometric.Arcsin),
    'arccos': (numpy.arccos, (-0.9, 0.9), trigonometric.Arccos),
    'arctan': (numpy.arctan, (-2, 2), trigonometric.Arctan),
}


def _tolerances(test, dtype):
    if dtype == numpy.float16:
        test.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
        test.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        test.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
    else:
        test.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
        test.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}


@testing.parameterize(*testing.product({
    'name': sorted(FUNCS),
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTrigonometric(testing.FunctionTestCase):

    def setUp(self):
        _tolerances(self, self.dtype)

    def generate_inputs(self):
        lo, hi = FUNCS[self.name][1]
        return numpy.random.uniform(lo, hi, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(*inputs),

    def forward_expected(self, inputs):
        x, = inputs
        y = FUNCS[self.name][0](x.astype(numpy.float64))
        return numpy.asarray(y, x.dtype),


@testing.parameterize(*testing.product({
    'shapes': [((3, 2), (3, 2)), ((), ()), ((0, 3), (0, 3)),
               ((2, 3), (3,)), ((1, 3), (2, 1)), ((), (2, 2))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestArctan2(testing.FunctionTestCase):

    def setUp(self):
        _tolerances(self, self.dtype)

    def generate_inputs(self):
        shape1, shape2 = self.shapes
        x1 = numpy.random.uniform(-2, 2, shape1).astype(self.dtype)
        x2 = numpy.random.uniform(-2, 2, shape2).astype(self.dtype)
        # Keep away from the origin, where the derivatives blow up, and
        # from the branch cut on the negative x2 axis.
        x1 = numpy.where(numpy.abs(x1) < 0.5, 0.5, x1).astype(self.dtype)
        x2 = numpy.where(numpy.abs(x2) < 0.5, 0.5, x2).astype(self.dtype)
        return x1, x2

    def forward(self, inputs, device):
        return F.arctan2(*inputs),

    def forward_expected(self, inputs):
        x1, x2 = inputs
        y = numpy.arctan2(x1.astype(numpy.float64), x2.astype(numpy.float64))
        return numpy.asarray(y, self.dtype),


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_label(name):
    y = getattr(F, name)(chainer.Variable(numpy.zeros((2,), numpy.float32)))
    assert type(y.creator) is FUNCS[name][2]
    assert y.creator.label == name


def test_arctan2_label():
    x = chainer.Variable(numpy.ones((2,), numpy.float32))
    y = F.arctan2(x, x)
    assert type(y.creator) is trigonometric.Arctan2
    assert y.creator.label == 'arctan2'


@pytest.mark.parametrize('name', ['sin', 'cos', 'arcsin', 'arccos', 'arctan'])
def test_grad_node_class(name):
    # The gradient is computed by a FunctionNode of its own, as in the
    # original: function hooks see SinGrad, CosGrad, ...
    x = chainer.Variable(numpy.array([0.1, 0.2], numpy.float32))
    y = getattr(F, name)(x)
    gx, = chainer.grad([y], [x], grad_outputs=[numpy.ones(2, numpy.float32)],
                       enable_double_backprop=True)
    expected = FUNCS[name][2].__name__ + 'Grad'
    assert type(gx.creator).__name__ == expected


def test_arctan2_grad_node_class():
    x1 = chainer.Variable(numpy.array([0.1, 0.2], numpy.float32))
    x2 = chainer.Variable(numpy.array([0.3, 0.4], numpy.float32))
    y = F.arctan2(x1, x2)
    gx1, gx2 = chainer.grad([y], [x1, x2],
                            grad_outputs=[numpy.ones(2, numpy.float32)],
                            enable_double_backprop=True)
    assert type(gx1.creator) is trigonometric.Arctan2Grad
    assert gx1.creator is gx2.creator


def test_arctan2_quadrants():
    y = numpy.array([1., 1., -1., -1.], numpy.float32)
    x = numpy.array([1., -1., -1., 1.], numpy.float32)
    numpy.testing.assert_allclose(
        F.arctan2(y, x).array / numpy.pi, [0.25, 0.75, -0.75, -0.25],
        rtol=1e-6)


def test_arctan2_second_order_with_one_grad_given():
    # Only gx1 is differentiated further: ggx2 is None in Arctan2Grad.
    x1 = numpy.array([0.7, -1.2], numpy.float64)
    x2 = numpy.array([1.5, 0.8], numpy.float64)
    gy = numpy.array([0.3, -0.4], numpy.float64)
    ggx1 = numpy.array([0.5, 0.9], numpy.float64)

    def first_grad(x1, x2):
        y = F.arctan2(x1, x2)
        gx1, = chainer.grad([y], [x1], grad_outputs=[gy],
                            enable_double_backprop=True)
        return gx1

    gradient_check.check_backward(first_grad, (x1, x2), ggx1)


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_non_float_input(name):
    with pytest.raises(type_check.InvalidType):
        getattr(F, name)(numpy.ones((2,), numpy.int32))


@pytest.mark.parametrize('dtypes', [(numpy.int32, numpy.float32),
                                    (numpy.float32, numpy.int32)],
                         ids=['int_x1', 'int_x2'])
def test_arctan2_non_float_input(dtypes):
    with pytest.raises(type_check.InvalidType):
        F.arctan2(numpy.ones((2,), dtypes[0]), numpy.ones((2,), dtypes[1]))


def test_arctan2_shape_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.arctan2(numpy.ones((2,), numpy.float32),
                  numpy.ones((3,), numpy.float32))


def test_arctan2_one_input():
    with pytest.raises(type_check.InvalidType):
        trigonometric.Arctan2().apply((numpy.ones((2,), numpy.float32),))
