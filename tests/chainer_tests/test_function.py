import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing


class Exp(chainer.Function):

    def forward(self, inputs):
        self.retain_outputs((0,))
        return numpy.exp(inputs[0]),

    def backward(self, inputs, grad_outputs):
        y, = self.output_data
        return grad_outputs[0] * y,


class Affine(chainer.Function):
    """Two outputs: a * x and x + b; all inputs retained by default."""

    def forward_cpu(self, inputs):
        x, a = inputs
        return a * x, x + 1

    def backward_cpu(self, inputs, grad_outputs):
        x, a = inputs
        g0, g1 = grad_outputs
        gx = numpy.zeros_like(x)
        ga = numpy.zeros_like(a)
        if g0 is not None:
            gx += a * g0
            ga += x * g0
        if g1 is not None:
            gx += g1
        return gx, ga


def _var(values, dtype=numpy.float32):
    return chainer.Variable(numpy.asarray(values, dtype=dtype))


def test_single_output_is_a_variable():
    x = _var([0, 1])
    y = Exp()(x)
    assert isinstance(y, chainer.Variable)
    numpy.testing.assert_allclose(y.array, numpy.exp([0, 1]), rtol=1e-6)


def test_backward_through_adapter():
    x = _var([0, 1])
    F.sum(Exp()(x)).backward()
    numpy.testing.assert_allclose(x.grad, numpy.exp([0, 1]), rtol=1e-6)


def test_creator_is_the_function_and_node_is_adapter():
    f = Exp()
    y = f(_var([0, 1]))
    assert y.creator is f
    assert y.creator_node is f.node
    assert isinstance(f.node, chainer.FunctionAdapter)
    assert f.node.function is f
    assert f.label == 'Exp'
    assert f.rank == 0
    assert f.inputs[0].shape == (2,)
    assert f.outputs[0]() is y.node


def test_multiple_outputs_and_missing_grad():
    x = _var([1, 2])
    a = _var([3, 4])
    y0, y1 = Affine()(x, a)
    F.sum(y0).backward()
    numpy.testing.assert_allclose(x.grad, [3, 4])
    numpy.testing.assert_allclose(a.grad, [1, 2])


def test_retain_inputs_subset():
    seen = []

    class Ret(chainer.Function):
        def forward(self, inputs):
            self.retain_inputs(())
            return inputs[0] * 2,

        def backward(self, inputs, grad_outputs):
            seen.append(inputs)
            return grad_outputs[0] * 2,

    x = _var([1, 2])
    F.sum(Ret()(x)).backward()
    assert seen == [(None,)]


def test_output_data_not_retained():
    class NoRetain(chainer.Function):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, inputs, grad_outputs):
            return self.output_data[0],

    x = _var([1, 2])
    with pytest.raises(RuntimeError, match='retained output data is gone'):
        F.sum(NoRetain()(x)).backward()


def test_cannot_differentiate_twice():
    x = _var([0, 1])
    y = Exp()(x)
    gx, = chainer.grad([y], [x], enable_double_backprop=True)
    gx.grad = numpy.ones(2, numpy.float32)
    with pytest.raises(RuntimeError, match='twice-differentiate'):
        gx.backward()


def test_wrong_gradient_dtype_is_reported():
    class Bad(chainer.Function):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, inputs, grad_outputs):
            return grad_outputs[0].astype(numpy.float64),

    x = _var([1, 2])
    with pytest.raises(TypeError, match='Dtype of data and grad'):
        F.sum(Bad()(x)).backward()


def test_check_type_forward():
    from chainer.utils import type_check

    class FloatOnly(chainer.Function):
        def check_type_forward(self, in_types):
            type_check.expect(in_types[0].dtype.kind == 'f')

        def forward(self, inputs):
            return inputs[0],

    with pytest.raises(type_check.InvalidType, match='FloatOnly'):
        FloatOnly()(numpy.array([1], numpy.int32))


def test_function_reused():
    f = Exp()
    x = _var([0, 1])
    f(x)
    y = f(x)
    F.sum(y).backward()
    numpy.testing.assert_allclose(x.grad, numpy.exp([0, 1]), rtol=1e-6)


def test_hooks_on_old_style_function():
    labels = []

    class Hook(chainer.FunctionHook):
        def forward_preprocess(self, function, in_data):
            labels.append(function.label)

    f = Exp()
    f.add_hook(Hook())
    y = f(_var([0]))
    assert labels == ['Exp']
    assert y.creator is f
    assert 'FunctionHook' in f.local_function_hooks
    f.delete_hook('FunctionHook')


def test_check_backward_on_old_style():
    x = numpy.random.RandomState(0).uniform(-1, 1, (3,)).astype(
        numpy.float64)
    gy = numpy.ones(3)
    chainer.gradient_check.check_backward(lambda x: Exp()(x), x, gy)



def test_grad_refuses_graph_through_old_style_gradient():
    x = _var([0, 1])
    y = Exp()(x)
    gx, = chainer.grad([y], [x], enable_double_backprop=True)
    z = F.sum(gx * 2)
    with pytest.raises(RuntimeError, match='twice-differentiate'):
        chainer.grad([z], [x])


testing.run_module(__name__, __file__)


def test_retain_after_backward_is_deprecated():
    class Twice(chainer.Function):
        def forward(self, inputs):
            self.retain_outputs((0,), retain_after_backward=True)
            return inputs[0] * 2,

    with pytest.warns(DeprecationWarning, match='no effect'):
        Twice()(numpy.ones(2, numpy.float32))
