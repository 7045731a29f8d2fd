"""chainer.backward and the traversal of Variable.backward: duplicate
outputs, and the checks of the gradients returned by backward, as in
Chainer 7.8."""

import numpy
import pytest

import chainer


def _var(values, dtype=numpy.float32, **kwargs):
    return chainer.Variable(numpy.array(values, dtype), **kwargs)


class TestDuplicateOutputs:

    def test_duplicate_outputs_use_their_grad_once(self):
        x = _var([1, 2, 3])
        y = x * 2
        y.grad = numpy.ones(3, numpy.float32)
        with pytest.warns(RuntimeWarning, match='duplicate outputs'):
            chainer.backward([y, y])
        numpy.testing.assert_array_equal(x.grad, [2, 2, 2])
        assert y.grad is None

    def test_given_gradients_of_a_duplicate_output_are_summed(self):
        x = _var([1, 2, 3])
        y = x * 2
        g = chainer.Variable(numpy.ones(3, numpy.float32))
        chainer.backward([y, y], [g, g])
        numpy.testing.assert_array_equal(x.grad, [4, 4, 4])


class _ReturnsGrad(chainer.FunctionNode):

    def __init__(self, grad):
        self.grad = grad

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, indexes, grad_outputs):
        return self.grad,


class TestDebugGradientChecks:

    def _backward(self, grad, initial=None):
        x = _var([1.])
        if initial is not None:
            x.grad = initial
        with chainer.using_config('debug', True):
            y, = _ReturnsGrad(grad).apply((x,))
            y.grad = numpy.ones(1, numpy.float32)
            y.backward()

    def test_type(self):
        with pytest.raises(ValueError, match='type of gradients'):
            self._backward(numpy.ones(1, numpy.float32))

    def test_shape(self):
        with pytest.raises(ValueError, match='shape of gradients'):
            self._backward(chainer.Variable(numpy.ones(2, numpy.float32)))

    def test_dtype_against_existing_gradient(self):
        with pytest.raises(ValueError, match='dtype of gradients'):
            self._backward(chainer.Variable(numpy.ones(1, numpy.int64)),
                           initial=numpy.ones(1, numpy.float32))

    def test_message_names_the_line_that_applied_the_node(self):
        with pytest.raises(ValueError) as e:
            self._backward(chainer.Variable(numpy.ones(2, numpy.float32)))
        assert 'Stacktrace of the function is below' in str(e.value)
        assert 'test_backprop.py' in str(e.value)

    def test_without_debug_a_wrong_shape_is_still_an_error(self):
        x = _var([1.])
        y, = _ReturnsGrad(
            chainer.Variable(numpy.ones(2, numpy.float32))).apply((x,))
        y.grad = numpy.ones(1, numpy.float32)
        with pytest.raises(ValueError, match='Shape of data and grad'):
            y.backward()


def test_non_scalar_backward_without_grad_names_the_function():
    y = _var([1, 2]) * 2
    with pytest.raises(TypeError, match='got no gradient'):
        y.backward()
