"""Behaviours of the core that user code of Chainer 7.8.1 relies on.

Each case was run under the original (Chainer 7.8.1, NumPy 1.26) and its
result is stated here.
"""

import copy
import pickle

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import initializers


def _var(values, dtype=numpy.float32, **kwargs):
    return chainer.Variable(numpy.array(values, dtype), **kwargs)


class TestGrad:

    def test_default_grad_outputs_are_ones_not_grad_var(self):
        x = _var([1, 2, 3])
        y = x * 2
        y.grad = numpy.full(3, 5, numpy.float32)
        gx, = chainer.grad([y], [x])
        numpy.testing.assert_array_equal(gx.array, [2, 2, 2])

    def test_none_in_grad_outputs_means_ones(self):
        x = _var([1, 2, 3])
        gx, = chainer.grad([x * 2], [x], grad_outputs=[None])
        numpy.testing.assert_array_equal(gx.array, [2, 2, 2])

    def test_none_in_grad_outputs_of_several_outputs(self):
        x = _var([1, 2, 3])
        g = chainer.Variable(numpy.full(3, 2, numpy.float32))
        gx, = chainer.grad([x * 2, x * 3], [x], grad_outputs=[None, g])
        numpy.testing.assert_array_equal(gx.array, [8, 8, 8])

    def test_duplicate_outputs_count_once(self):
        x = _var([1, 2, 3])
        y = x * 2
        gx, = chainer.grad([y, y], [x])
        numpy.testing.assert_array_equal(gx.array, [2, 2, 2])

    def test_loss_scale_scales_the_default_gradient(self):
        x = _var([1, 2, 3])
        gx, = chainer.grad([F.sum(x * 2)], [x], loss_scale=3)
        numpy.testing.assert_array_equal(gx.array, [6, 6, 6])

    def test_retain_grad_records_loss_scale(self):
        x = _var([1, 2, 3])
        h = x * 2
        chainer.grad([h * 3], [x], retain_grad=True, loss_scale=2)
        numpy.testing.assert_array_equal(h.grad, [6, 6, 6])
        assert h._loss_scale == 2


class TestBackwardFunction:

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


class TestVariableBackward:

    def test_output_gradient_is_cleared(self):
        x = _var([1, 2, 3])
        y = x * 2
        y.grad = numpy.ones(3, numpy.float32)
        y.backward()
        assert y.grad is None
        numpy.testing.assert_array_equal(x.grad, [2, 2, 2])
        with pytest.raises(TypeError, match='set the grad'):
            y.backward()

    def test_scalar_output_gradient_is_cleared_unless_retained(self):
        x = _var([1, 2, 3])
        y = F.sum(x * 2)
        y.backward()
        assert y.grad is None
        y = F.sum(x * 2)
        y.backward(retain_grad=True)
        numpy.testing.assert_array_equal(y.grad, 1)

    def test_leaf_gets_ones_times_loss_scale(self):
        v = _var(3)
        v.backward(loss_scale=4)
        numpy.testing.assert_array_equal(v.grad, 4)
        w = _var([3])
        with pytest.warns(DeprecationWarning):
            w.backward()
        numpy.testing.assert_array_equal(w.grad, [1])

    def test_unchained_output_is_a_leaf(self):
        v = _var(3)
        y = v * 2
        y.unchain()
        y.backward(loss_scale=2)
        numpy.testing.assert_array_equal(y.grad, 2)
        assert v.grad is None

    def test_non_scalar_leaf_without_grad_does_nothing(self):
        x = _var([1, 2, 3])
        x.backward()
        assert x.grad is None

    def test_loss_scale_is_recorded_on_leaves(self):
        x = _var([1, 2, 3])
        F.sum(x * 2).backward(loss_scale=8)
        numpy.testing.assert_array_equal(x.grad, [16, 16, 16])
        assert x._loss_scale == 8


class _Twice(chainer.Function):

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, inputs, grad_outputs):
        return grad_outputs[0] * 2,


class _TwiceNode(chainer.FunctionNode):

    def forward(self, inputs):
        return inputs[0] * 2,


class TestLinking:

    def test_nodes_are_linked_without_inputs_requiring_grad(self):
        a = numpy.ones(3, numpy.float32)
        assert isinstance(F.relu(a).creator, F.activation.relu.ReLU)
        assert F.relu(F.relu(a)).rank == 2
        assert isinstance(_Twice()(a).creator, _Twice)
        assert isinstance(_TwiceNode().apply((a,))[0].creator, _TwiceNode)

    def test_backward_of_constant_graph_reaches_no_variable(self):
        x = _var([1, 2, 3], requires_grad=False)
        y = F.sum(x * 2)
        assert y.creator is not None
        y.backward()
        assert x.grad is None

    def test_no_backprop_mode_links_nothing(self):
        with chainer.no_backprop_mode():
            assert F.relu(_var([1, 2])).creator is None


class TestParameter:

    def test_repr_is_that_of_a_variable(self):
        p = chainer.Parameter(numpy.ones((2, 2), numpy.float32))
        assert repr(p) == ('variable([[1., 1.],\n'
                           '          [1., 1.]])')
        assert repr(chainer.Parameter()) == 'variable(None)'

    def test_uninitialized_grad_raises_until_cleared(self):
        p = chainer.Parameter()
        with pytest.raises(RuntimeError, match='cleargrad'):
            p.grad
        assert p.grad_var is None
        p.cleargrad()
        assert p.grad is None
        q = chainer.Parameter()
        q.grad = None
        assert q.grad is None

    def test_uninitialized_grad_raises_after_pickling(self):
        p = pickle.loads(pickle.dumps(chainer.Parameter()))
        with pytest.raises(RuntimeError):
            p.grad

    def test_uninitialized_dtype(self):
        assert chainer.Parameter().dtype == numpy.dtype(numpy.float64)
        assert isinstance(chainer.Parameter().dtype, numpy.dtype)
        p = chainer.Parameter(initializers.Normal(dtype=numpy.float16))
        assert p.dtype == numpy.dtype(numpy.float16)
        assert isinstance(p.dtype, numpy.dtype)

        class NoDtype:
            def __call__(self, array):
                array[...] = 1

        with pytest.raises(RuntimeError, match='dtype'):
            chainer.Parameter(NoDtype()).dtype

    def test_initializer_of_an_array(self):
        a = numpy.ones(2, numpy.float32)
        assert chainer.Parameter(a).initializer is a
        assert isinstance(
            chainer.Parameter(a, (3, 2)).initializer, initializers.Constant)
        assert isinstance(chainer.Parameter(3).initializer,
                          initializers.Constant)

    def test_xp_follows_the_device(self):
        assert chainer.Parameter().xp is numpy
        assert chainer.Variable().xp is numpy

    def test_copies_share_the_array(self):
        p = chainer.Parameter(numpy.ones(3, numpy.float32))
        q = copy.copy(p)
        assert q.node is not p.node
        q.array = numpy.zeros(3, numpy.float32)
        numpy.testing.assert_array_equal(p.array, [0, 0, 0])
        p.array = numpy.full(3, 2, numpy.float32)
        numpy.testing.assert_array_equal(q.array, [2, 2, 2])
        d = copy.deepcopy(p)
        d.array = numpy.full(3, 7, numpy.float32)
        numpy.testing.assert_array_equal(p.array, [2, 2, 2])

    def test_uninitialized_copies_share_initialization(self):
        p = chainer.Parameter()
        q = copy.copy(p)
        q.initialize((2,))
        assert p.is_initialized
        assert p.shape == (2,)


class TestVariableMisc:

    def test_len(self):
        assert len(_var([1, 2, 3])) == 3
        with pytest.raises(TypeError):
            len(chainer.Variable())
        with pytest.raises(TypeError):
            len(_var(1))

    def test_unary_plus_is_identity(self):
        x = _var([1, 2])
        assert +x is x


class TestConstantInitializers:

    @pytest.mark.parametrize('cls, value', [
        (initializers.Zero, 0), (initializers.One, 1),
    ])
    def test_fill(self, cls, value):
        assert isinstance(cls, type)
        assert not issubclass(cls, initializers.Constant)
        a = numpy.empty(3, numpy.float32)
        cls()(a)
        numpy.testing.assert_array_equal(a, [value] * 3)
        assert cls(numpy.float16).dtype == numpy.float16

    def test_nan(self):
        a = numpy.empty(2)
        initializers.NaN()(a)
        assert numpy.isnan(a).all()

    def test_constant_rejects_non_scalars(self):
        with pytest.raises(ValueError):
            initializers.Constant([1, 2])


def test_size_of_shape_is_int():
    assert type(chainer.utils.size_of_shape((2, 3))) is int


def test_array_types_without_cuda():
    if chainer.backends.cuda.available:
        pytest.skip('CuPy is available')
    assert chainer.get_array_types() == (numpy.ndarray,)


def test_variable_repr_and_str_functions():
    v = chainer.Variable(numpy.zeros((0, 2), numpy.float32), name='v')
    assert chainer.variable.variable_repr(v) == 'variable v([], shape=(0, 2))'
    assert chainer.variable.variable_str(v) == 'variable v([])'
    assert repr(v) == chainer.variable.variable_repr(v)


def test_retain_after_backward_is_deprecated():
    class Twice(chainer.Function):
        def forward(self, inputs):
            self.retain_outputs((0,), retain_after_backward=True)
            return inputs[0] * 2,

    with pytest.warns(DeprecationWarning, match='no effect'):
        Twice()(numpy.ones(2, numpy.float32))


def test_device_given_to_to_device_is_kept():
    class HostDevice(chainer.backend.CpuDevice):
        pass

    device = HostDevice()
    v = _var([1, 2])
    v.to_device(device)
    assert v.device is device
    assert v.xp is numpy
    p = chainer.Parameter()
    p.to_device(device)
    assert p.device is device
    p.initialize((2,))
    assert p.device is device


def test_grad_table():
    from chainer import _backprop_utils
    x = _var([1, 2])
    x.grad = numpy.ones(2, numpy.float32)
    table = _backprop_utils.GradTable(accumulate_grad_inputs=True)
    table.accumulate(x.node, chainer.Variable(numpy.full(2, 2, numpy.float32)))
    numpy.testing.assert_array_equal(table.pop(x.node).array, [3, 3])
    table.assert_no_grads()
    table[x.node] = None
    assert table.pop(x.node) is None


def test_unpickles_what_chainer_7_8_pickled():
    # fixtures/make_pickle_fixture.py wrote these with Chainer 7.8.1.
    import os
    path = os.path.join(os.path.dirname(__file__), 'fixtures',
                        'original_pickles.pkl')
    with open(path, 'rb') as f:
        param, var, linear, lazy = pickle.load(f)
    numpy.testing.assert_array_equal(param.array, [1, 1, 1])
    numpy.testing.assert_array_equal(param.grad, [2, 2, 2])
    assert var.name == 'v'
    numpy.testing.assert_array_equal(var.grad, [1, 1])
    assert linear.W.shape == (3, 2)
    with pytest.raises(RuntimeError):
        lazy.grad


def test_pickle_round_trip_keeps_gradients_and_validity():
    p = chainer.Parameter(numpy.ones(2, numpy.float32))
    p.grad = numpy.full(2, 3, numpy.float32)
    q = pickle.loads(pickle.dumps(p))
    numpy.testing.assert_array_equal(q.grad, [3, 3])
    assert q.grad_var is not p.grad_var
    v = pickle.loads(pickle.dumps(_var([1, 2], name='x')))
    assert v.name == 'x' and v.grad is None


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
        assert 'test_original_semantics.py' in str(e.value)

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
