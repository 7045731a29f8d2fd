import copy
import gc
import inspect
import operator
import os
import pickle
import weakref

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import initializers
from chainer import testing


class Square(chainer.FunctionNode):

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return x * x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return 2 * x * gy,


def _var(values, dtype=numpy.float32, **kwargs):
    return chainer.Variable(numpy.asarray(values, dtype=dtype), **kwargs)


class TestConstruction:

    def test_array_and_data_alias(self):
        data = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
        x = chainer.Variable(data)
        assert x.array is data
        assert x.data is data
        assert x.shape == (2, 3)
        assert x.ndim == 2
        assert x.size == 6
        assert x.dtype == numpy.float32
        assert len(x) == 2
        assert x.xp is numpy
        assert x.requires_grad
        assert x.grad is None and x.grad_var is None
        assert x.creator is None and x.creator_node is None
        assert x.rank == 0

    def test_none_data(self):
        x = chainer.Variable()
        assert x.array is None
        assert repr(x) == 'variable(None)'

    @pytest.mark.parametrize('bad', [1, 1.5, [1, 2], numpy.float32(2)])
    def test_rejects_non_arrays(self, bad):
        with pytest.raises(TypeError):
            chainer.Variable(bad)

    def test_volatile_is_refused(self):
        with pytest.raises(ValueError, match='volatile'):
            chainer.Variable(None, volatile=True)

    def test_unknown_kwarg(self):
        with pytest.raises(TypeError, match="'foo'"):
            chainer.Variable(None, foo=1)

    def test_grad_kwarg(self):
        g = numpy.ones(3, numpy.float32)
        x = _var([1, 2, 3], grad=g)
        numpy.testing.assert_array_equal(x.grad, g)

    def test_len_of_scalar(self):
        with pytest.raises(TypeError):
            len(_var(1))

    def test_item(self):
        assert _var(2.5).item() == 2.5


class TestRepr:

    def test_repr_and_str(self):
        x = _var([0, 1, 2])
        assert repr(x) == 'variable([0., 1., 2.])'
        assert str(x) == 'variable([0. 1. 2.])'

    def test_named_multiline(self):
        x = chainer.Variable(
            numpy.arange(6, dtype=numpy.float64).reshape(2, 3), name='w')
        assert repr(x) == ('variable w([[0., 1., 2.],\n'
                           '            [3., 4., 5.]])')
        assert str(x) == ('variable w([[0. 1. 2.]\n'
                          '            [3. 4. 5.]])')

    def test_label(self):
        assert _var(numpy.zeros((2, 3)), numpy.float64).label == \
            '(2, 3), float64'
        assert _var([0, 0, 0]).label == '(3), float32'
        assert _var(2).label == 'float32'

    def test_summary_and_debug_print(self):
        x = _var([0, 1, 2], name='x')
        assert x.summary() == '<variable x>'
        text = x.debug_print()
        assert '- shape: (3,)' in text
        assert '- dtype: float32' in text
        assert 'mean=1.00000000, std=0.81649661' in text
        assert '- grad: None' in text


class TestComparisonsAreRefused:

    @pytest.mark.parametrize('op', [
        operator.eq, operator.ne, operator.lt, operator.le, operator.gt,
        operator.ge])
    def test_comparison(self, op):
        with pytest.raises(TypeError, match='do not support'):
            op(_var([1, 2]), 1)

    def test_reflected_comparison_with_array(self):
        with pytest.raises(TypeError, match='do not support > operator'):
            numpy.ones(2, numpy.float32) < _var([1, 2])

    def test_bool_and_hash(self):
        x = _var([1, 2])
        with pytest.raises(TypeError):
            bool(x)
        with pytest.raises(TypeError):
            hash(x)


class TestGradAttribute:

    def test_set_and_clear(self):
        x = _var([1, 2])
        x.grad = numpy.ones(2, numpy.float32)
        numpy.testing.assert_array_equal(x.grad, [1, 1])
        assert isinstance(x.grad_var, chainer.Variable)
        x.cleargrad()
        assert x.grad is None

    def test_wrong_dtype(self):
        x = _var([1, 2])
        with pytest.raises(TypeError, match='Dtype of data and grad'):
            x.grad = numpy.ones(2, numpy.float64)

    def test_wrong_shape(self):
        x = _var([1, 2])
        with pytest.raises(ValueError, match='Shape of data and grad'):
            x.grad = numpy.ones(3, numpy.float32)

    def test_wrong_type(self):
        x = _var([1, 2])
        with pytest.raises(TypeError, match='Type of grad is invalid'):
            x.grad = [1, 2]

    def test_zerograd(self):
        x = _var([1, 2])
        with pytest.warns(DeprecationWarning):
            x.zerograd()
        numpy.testing.assert_array_equal(x.grad, [0, 0])
        x.grad[:] = 3
        with pytest.warns(DeprecationWarning):
            x.zerograd()
        numpy.testing.assert_array_equal(x.grad, [0, 0])

    def test_addgrad(self):
        x = _var([1, 2])
        y = _var([3, 4])
        y.grad = numpy.array([1, 2], numpy.float32)
        x.addgrad(y)
        numpy.testing.assert_array_equal(x.grad, [1, 2])
        # As the original: the source's gradient variable is bound as is.
        assert x.grad_var is y.grad_var
        first = x.grad
        x.addgrad(y)
        numpy.testing.assert_array_equal(x.grad, [2, 4])
        # The sum is a new array: neither gradient is changed in place.
        numpy.testing.assert_array_equal(first, [1, 2])
        numpy.testing.assert_array_equal(y.grad, [1, 2])

    def test_addgrad_checks_dtype_and_shape(self):
        x = _var([1, 2])
        x.grad = numpy.ones(2, numpy.float32)
        y = chainer.Variable(numpy.ones(2, numpy.float64))
        y.grad = numpy.ones(2, numpy.float64)
        with pytest.raises(chainer.utils.type_check.InvalidType):
            x.addgrad(y)
        z = _var([1, 2, 3])
        z.grad = numpy.ones(3, numpy.float32)
        with pytest.raises(chainer.utils.type_check.InvalidType):
            x.addgrad(z)

    def test_addgrad_initializes_parameter(self):
        y = _var([3, 4])
        y.grad = numpy.array([1, 2], numpy.float32)
        p = chainer.Parameter()
        p.cleargrad()
        p.addgrad(y)
        assert p.shape == (2,)
        numpy.testing.assert_array_equal(p.grad, [1, 2])
        # Without cleargrad the new gradient starts as NaN, as the original.
        p = chainer.Parameter()
        p.addgrad(y)
        assert numpy.isnan(p.grad).all()

    def test_copydata(self):
        x = _var([1, 2])
        data = x.array
        x.copydata(_var([5, 6]))
        assert x.array is data
        numpy.testing.assert_array_equal(x.array, [5, 6])


class TestBackward:

    def test_square(self):
        x = _var([1, 2, 3])
        y, = Square().apply((x,))
        y.grad = numpy.ones(3, numpy.float32)
        y.backward()
        numpy.testing.assert_allclose(x.grad, [2, 4, 6])

    def test_scalar_output_needs_no_grad(self):
        x = _var([1, 2, 3])
        loss = F.sum(x * x)
        loss.backward()
        numpy.testing.assert_allclose(x.grad, [2, 4, 6])
        # The default initial gradient is not stored on the output.
        assert loss.grad is None

    def test_non_scalar_output_without_grad(self):
        x = _var([1, 2, 3])
        y = x * 2
        with pytest.raises(TypeError, match='set the grad'):
            y.backward()

    def test_one_element_non_scalar_warns(self):
        x = _var([[2]])
        y = x * 3
        with pytest.warns(DeprecationWarning, match='one element'):
            y.backward()
        numpy.testing.assert_allclose(x.grad, [[3]])

    def test_leaf_grads_accumulate_across_calls(self):
        x = _var([1, 2])
        F.sum(x * 3).backward()
        F.sum(x * 3).backward()
        numpy.testing.assert_allclose(x.grad, [6, 6])

    def test_data_dependent_graph(self):
        # The graph follows Python control flow on the values.
        def f(x):
            h = x
            for _ in range(int(x.array.sum())):
                if h.array.sum() > 10:
                    h = h * 0.5
                else:
                    h = h * h
            return F.sum(h)

        x = _var([1.5, 1.5])
        f(x).backward()
        # 3 steps: square (sum 4.5), square (sum ~10.1 -> > 10), halve.
        h0 = numpy.array([1.5, 1.5])
        expected = 0.5 * 4 * h0 ** 3
        numpy.testing.assert_allclose(x.grad, expected, rtol=1e-6)

    def test_diamond_accumulates(self):
        x = _var([1, 2])
        a = x * 2
        b = x * 3
        c = a * b
        F.sum(c).backward()
        # c = 6 x^2, dc/dx = 12 x.
        numpy.testing.assert_allclose(x.grad, [12, 24])

    def test_same_variable_twice_in_one_node(self):
        x = _var([1, 2, 3])
        F.sum(x * x).backward()
        numpy.testing.assert_allclose(x.grad, [2, 4, 6])

    def test_retain_grad(self):
        x = _var([1, 2])
        h = x * 3
        y = F.sum(h * h)
        y.backward(retain_grad=True)
        numpy.testing.assert_allclose(h.grad, 2 * h.array)
        numpy.testing.assert_allclose(x.grad, 18 * x.array)

    def test_intermediate_grads_freed_by_default(self):
        x = _var([1, 2])
        h = x * 3
        F.sum(h * h).backward()
        assert h.grad is None
        assert x.grad is not None

    def test_requires_grad_false_gets_no_grad(self):
        x = _var([1, 2])
        c = _var([3, 4], requires_grad=False)
        F.sum(x * c).backward()
        assert c.grad is None
        numpy.testing.assert_allclose(x.grad, [3, 4])

    def test_constant_inputs_are_linked_while_backprop_is_enabled(self):
        c = _var([3, 4], requires_grad=False)
        y = c * 2
        assert isinstance(y.creator_node, chainer.FunctionNode)
        assert y.rank == 1
        assert not y.requires_grad
        with chainer.no_backprop_mode():
            assert (c * 2).creator_node is None

    def test_rank(self):
        x = _var([1])
        y = x * 2
        z = y * x
        assert (x.rank, y.rank, z.rank) == (0, 1, 2)
        assert z.creator_node.rank == 1

    def test_heap_order_runs_each_node_once_after_consumers(self):
        calls = []

        class Recorder(chainer.FunctionNode):

            def __init__(self, name):
                self.name = name

            def forward(self, inputs):
                return inputs[0] * 1,

            def backward(self, indexes, grad_outputs):
                calls.append(self.name)
                return grad_outputs[0],

        x = _var([1.0])
        a, = Recorder('a').apply((x,))
        b, = Recorder('b').apply((a,))
        c, = Recorder('c').apply((a,))
        d, = Recorder('d').apply((b,))
        loss = F.sum(d + c)
        loss.backward()
        assert sorted(calls) == ['a', 'b', 'c', 'd']
        assert calls.index('a') == 3
        assert calls.index('d') < calls.index('b')
        numpy.testing.assert_allclose(x.grad, [2.0])

    def test_loss_scale(self):
        x = _var([1, 2])
        F.sum(x * 3).backward(loss_scale=8)
        numpy.testing.assert_allclose(x.grad, [24, 24])
        assert x._loss_scale == 8

    @pytest.mark.parametrize('dtype', [
        numpy.float16, numpy.float32, numpy.float64])
    def test_cube_twice_differentiated(self, dtype):
        x = _var([1, 2, 3], dtype)
        y = x ** 3
        y.grad = numpy.ones(3, dtype)
        y.backward(enable_double_backprop=True)
        gx = x.grad_var
        numpy.testing.assert_allclose(gx.array, 3 * x.array ** 2)
        x.cleargrad()
        gx.grad = numpy.ones(3, dtype)
        gx.backward()
        numpy.testing.assert_allclose(x.grad, 6 * x.array)

    def test_third_order(self):
        x = _var([0.5, 1.5], numpy.float64)
        y = x ** 4
        g1, = chainer.grad([y], [x], enable_double_backprop=True)
        g2, = chainer.grad([g1], [x], enable_double_backprop=True)
        g3, = chainer.grad([g2], [x])
        numpy.testing.assert_allclose(g3.array, 24 * x.array)

    def test_backward_without_double_backprop_builds_no_graph(self):
        x = _var([1, 2])
        F.sum(x ** 3).backward()
        assert x.grad_var.creator_node is None

    def test_unchain_backward(self):
        x = _var([1, 2])
        h = x * 2
        y = h * 3
        y.unchain_backward()
        assert y.creator_node is None
        assert h.creator_node is None

    def test_unchain(self):
        x = _var([1, 2])
        h = x * 2
        y = F.sum(h * 3)
        h.unchain()
        y.backward()
        assert x.grad is None


class TestMemory:

    def test_dropped_variable_frees_array(self):
        x = _var(numpy.ones(4))
        h = x * 2
        data_ref = weakref.ref(h.array) if hasattr(
            h.array, '__weakref__') else None
        y = h + 1
        node = h.node
        del h
        gc.collect()
        assert node.get_variable_or_none() is None
        # The node of an unretained intermediate does not keep its array.
        assert node.data is None
        if data_ref is not None:
            assert data_ref() is None
        F.sum(y).backward()
        numpy.testing.assert_allclose(x.grad, [2, 2, 2, 2])

    def test_retained_input_survives_variable(self):
        x = _var([1, 2, 3])
        h = x * 1
        y, = Square().apply((h,))
        del h
        gc.collect()
        F.sum(y).backward()
        numpy.testing.assert_allclose(x.grad, [2, 4, 6])


class TestNoBackpropMode:

    def test_no_graph(self):
        x = _var([1, 2])
        with chainer.no_backprop_mode():
            y = x * 2
        assert y.creator_node is None
        assert chainer.config.enable_backprop

    def test_force_backprop_mode_inside(self):
        x = _var([1, 2])
        with chainer.no_backprop_mode():
            with chainer.force_backprop_mode():
                y = x * 2
        assert y.creator_node is not None

    def test_decorator(self):
        @chainer.no_backprop_mode()
        def f(x):
            return x * 2

        assert f(_var([1])).creator_node is None


class TestGrad:

    def test_leaves_grad_alone(self):
        x = _var([1, 2, 3])
        y = F.sum(x * x)
        gx, = chainer.grad([y], [x])
        numpy.testing.assert_allclose(gx.array, [2, 4, 6])
        assert x.grad is None

    def test_set_grad(self):
        x = _var([1, 2, 3])
        gx, = chainer.grad([F.sum(x * x)], [x], set_grad=True)
        assert x.grad_var is gx

    def test_intermediate_input(self):
        x = _var([1, 2])
        h = x * x
        z = F.sum(h * 3)
        gh, gx = chainer.grad([z], [h, x])
        numpy.testing.assert_allclose(gh.array, [3, 3])
        numpy.testing.assert_allclose(gx.array, [6, 12])

    def test_grad_inputs_are_added(self):
        x = _var([1, 2])
        z = F.sum(x * x * 3)
        gx, = chainer.grad(
            [z], [x], grad_inputs=[numpy.ones(2, numpy.float32)])
        numpy.testing.assert_allclose(gx.array, [7, 13])

    def test_unreachable_input(self):
        x = _var([1, 2])
        w = _var([1, 2])
        assert chainer.grad([F.sum(x * 2)], [w]) == [None]

    def test_grad_outputs(self):
        x = _var([1, 2])
        y = x * x
        gx, = chainer.grad(
            [y], [x], grad_outputs=[numpy.array([1, 10], numpy.float32)])
        numpy.testing.assert_allclose(gx.array, [2, 40])

    def test_loss_scale(self):
        x = _var([1, 2])
        gx, = chainer.grad([F.sum(x * x)], [x], loss_scale=2.0)
        numpy.testing.assert_allclose(gx.array, [4, 8])

    def test_double_backprop(self):
        x = _var([1, 2])
        gx, = chainer.grad([F.sum(x ** 3)], [x], enable_double_backprop=True)
        assert gx.creator_node is not None
        ggx, = chainer.grad([F.sum(gx)], [x])
        numpy.testing.assert_allclose(ggx.array, [6, 12])

    def test_type_errors(self):
        x = _var([1, 2])
        y = x * 2
        with pytest.raises(TypeError, match='outputs must be a tuple'):
            chainer.grad(y, [x])
        with pytest.raises(TypeError, match='inputs must be a tuple'):
            chainer.grad([y], x)
        with pytest.raises(ValueError, match='same length'):
            chainer.grad([y], [x], grad_outputs=[None, None])

    def test_retain_grad(self):
        x = _var([1, 2])
        h = x * 3
        z = F.sum(h * h)
        chainer.grad([z], [x], retain_grad=True)
        numpy.testing.assert_allclose(h.grad, 2 * h.array)


class TestModuleBackward:

    def test_several_outputs(self):
        x = _var([1, 2])
        y = x * x
        z = x * 3
        chainer.backward(
            [y, z], [numpy.ones(2, numpy.float32),
                     numpy.ones(2, numpy.float32)])
        numpy.testing.assert_allclose(x.grad, [5, 7])

    def test_no_default_grad(self):
        x = _var([1, 2])
        with pytest.warns(RuntimeWarning, match='without grad'):
            chainer.backward([F.sum(x * x)])
        assert x.grad is None

    def test_loss_scale_is_refused(self):
        x = _var([1, 2])
        with pytest.raises(ValueError, match='loss_scale'):
            chainer.backward([x * 2], loss_scale=2)

    def test_outputs_must_be_list(self):
        x = _var([1, 2])
        with pytest.raises(TypeError, match='tuple or a list'):
            chainer.backward(x * 2)


class TestShapeMethods:

    def test_reshape_forms(self):
        x = _var(numpy.arange(6))
        assert x.reshape(2, 3).shape == (2, 3)
        assert x.reshape((3, 2)).shape == (3, 2)
        assert x.reshape([6]).shape == (6,)

    def test_transpose_forms(self):
        x = _var(numpy.zeros((2, 3, 4)))
        assert x.transpose().shape == (4, 3, 2)
        assert x.T.shape == (4, 3, 2)
        assert x.transpose(1, 0, 2).shape == (3, 2, 4)
        assert x.transpose((2, 0, 1)).shape == (4, 2, 3)
        assert x.transpose(None).shape == (4, 3, 2)

    def test_getitem_backward(self):
        x = _var(numpy.arange(6).reshape(2, 3))
        F.sum(x[1, [0, 0, 2]]).backward()
        numpy.testing.assert_allclose(x.grad, [[0, 0, 0], [2, 0, 1]])


class TestDevices:

    def test_to_cpu_keeps_numpy(self):
        x = _var([1, 2])
        x.grad = numpy.ones(2, numpy.float32)
        x.to_cpu()
        assert isinstance(x.array, numpy.ndarray)
        assert isinstance(x.grad, numpy.ndarray)

    def test_to_device_numpy(self):
        x = _var([1, 2])
        x.to_device('@numpy')
        assert x.device.xp is numpy

    def test_to_gpu_without_cupy(self):
        if chainer.backends.cuda.available:
            pytest.skip('CuPy is available')
        with pytest.raises(RuntimeError):
            _var([1, 2]).to_gpu()

    @pytest.mark.gpu
    def test_to_gpu_and_back(self):
        import cupy
        x = _var([1, 2])
        x.grad = numpy.ones(2, numpy.float32)
        x.to_gpu()
        assert isinstance(x.array, cupy.ndarray)
        assert isinstance(x.grad, cupy.ndarray)
        y = F.sum(x * x)
        y.backward()
        x.to_cpu()
        numpy.testing.assert_allclose(x.grad, [3, 5])


class TestPickleAndCopy:

    def test_pickle(self):
        x = _var([1, 2], name='x')
        x.grad = numpy.ones(2, numpy.float32)
        y = pickle.loads(pickle.dumps(x))
        numpy.testing.assert_array_equal(y.array, x.array)
        numpy.testing.assert_array_equal(y.grad, x.grad)
        assert y.name == 'x'

    def test_deepcopy_drops_graph(self):
        x = _var([1, 2])
        y = x * 2
        z = copy.deepcopy(y)
        assert z.creator_node is None
        numpy.testing.assert_array_equal(z.array, y.array)


class TestParameter:

    def test_from_array(self):
        data = numpy.zeros(3, numpy.float32)
        p = chainer.Parameter(data)
        assert p.array is data
        assert p.grad is None
        assert p.is_initialized

    def test_with_shape(self):
        p = chainer.Parameter(3.0, (2,))
        numpy.testing.assert_array_equal(p.array, [3, 3])
        assert p.array.dtype == numpy.float32
        assert numpy.isnan(p.grad).all()

    def test_lazy_initialize(self):
        p = chainer.Parameter()
        assert not p.is_initialized
        assert p.array is None
        p.initialize((3,))
        assert p.shape == (3,)
        assert numpy.isnan(p.array).all()
        assert numpy.isnan(p.grad).all()

    def test_cleargrad_before_initialize(self):
        p = chainer.Parameter(chainer.initializers.One())
        p.cleargrad()
        p.initialize((2,))
        assert p.grad is None
        numpy.testing.assert_array_equal(p.array, [1, 1])

    def test_zerograd_before_initialize(self):
        p = chainer.Parameter()
        with pytest.warns(DeprecationWarning):
            p.zerograd()
        p.initialize((2,))
        numpy.testing.assert_array_equal(p.grad, [0, 0])

    def test_dtype_config(self):
        with chainer.using_config('dtype', numpy.float64):
            p = chainer.Parameter(1.0, (2,))
        assert p.dtype == numpy.float64

    def test_update_calls_rule(self):
        calls = []

        class Rule:
            def update(self, param):
                calls.append(param)

        p = chainer.Parameter(numpy.zeros(2, numpy.float32))
        p.update()
        p.update_rule = Rule()
        p.update()
        assert calls == [p]

    def test_pickle(self):
        p = chainer.Parameter(numpy.arange(3, dtype=numpy.float32), name='w')
        q = pickle.loads(pickle.dumps(p))
        assert isinstance(q, chainer.Parameter)
        numpy.testing.assert_array_equal(q.array, p.array)
        assert q.name == 'w'

    def test_gradient_flows(self):
        p = chainer.Parameter(numpy.array([1, 2], numpy.float32))
        F.sum(p * p).backward()
        numpy.testing.assert_allclose(p.grad, [2, 4])


def test_as_variable_and_as_array():
    data = numpy.ones(2, numpy.float32)
    v = chainer.as_variable(data)
    assert not v.requires_grad
    assert chainer.as_variable(v) is v
    assert chainer.as_array(v) is data
    assert chainer.as_array(data) is data


testing.run_module(__name__, __file__)


class TestBackwardOfOutputsAndLeaves:

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


class TestParameterStates:

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


class TestLenAndUnaryPlus:

    def test_len(self):
        assert len(_var([1, 2, 3])) == 3
        with pytest.raises(TypeError):
            len(chainer.Variable())
        with pytest.raises(TypeError):
            len(_var(1))

    def test_unary_plus_is_identity(self):
        x = _var([1, 2])
        assert +x is x


def test_variable_repr_and_str_functions():
    v = chainer.Variable(numpy.zeros((0, 2), numpy.float32), name='v')
    assert chainer.variable.variable_repr(v) == 'variable v([], shape=(0, 2))'
    assert chainer.variable.variable_str(v) == 'variable v([])'
    assert repr(v) == chainer.variable.variable_repr(v)


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


def test_unpickles_what_chainer_7_8_pickled():
    # fixtures/make_pickle_fixture.py wrote these with Chainer 7.8.1.
    path = os.path.join(os.path.dirname(__file__), 'fixtures',
                        'original_pickles.pkl')
    with open(path, 'rb') as f:
        param, var, linear, lazy = pickle.load(f)
    numpy.testing.assert_array_equal(param.array, [1, 1, 1])
    numpy.testing.assert_array_equal(param.grad, [2, 2, 2])
    assert var.name == 'v'
    numpy.testing.assert_array_equal(var.grad, [1, 1])
    assert linear.W.shape == (3, 2)
    y = linear(numpy.ones((1, 2), numpy.float32))
    numpy.testing.assert_allclose(
        y.array, linear.W.array.sum(axis=1)[None], rtol=1e-6)
    with pytest.raises(RuntimeError):
        lazy.grad


def test_pickled_link_keeps_chainer_7_8_attribute_names():
    # Chainer 7.8.1 checks its links with the name-mangled _Link__init_done
    # and its Convolution2D reads x_layout.
    state = pickle.loads(pickle.dumps(chainer.links.Linear(2, 3))).__dict__
    assert state['_Link__init_done'] is True
    conv = pickle.loads(pickle.dumps(chainer.links.Convolution2D(2, 3, 3)))
    assert conv.__dict__['x_layout'] is None


def test_pickle_round_trip_keeps_gradients_and_validity():
    p = chainer.Parameter(numpy.ones(2, numpy.float32))
    p.grad = numpy.full(2, 3, numpy.float32)
    q = pickle.loads(pickle.dumps(p))
    numpy.testing.assert_array_equal(q.grad, [3, 3])
    assert q.grad_var is not p.grad_var
    v = pickle.loads(pickle.dumps(_var([1, 2], name='x')))
    assert v.name == 'x' and v.grad is None


# Memory layouts, ChainerX members and the smaller API points: the values,
# types and messages of Chainer 7.8.1 with NumPy arrays.

_LAST_X = 'CUDNN_CHANNEL_LAST_X'
_LAST_W = 'CUDNN_CHANNEL_LAST_W'


def _channel_last():
    return numpy.arange(120, dtype=numpy.float32).reshape(2, 3, 4, 5)


class TestNonstandardLayout:

    def test_shapes(self):
        v = chainer.Variable(_channel_last(), layout=_LAST_X)
        assert v.layout == _LAST_X
        assert v.shape == (2, 5, 3, 4)
        assert v.raw_array.shape == (2, 3, 4, 5)
        assert (v.ndim, v.size, v.dtype) == (4, 120, numpy.float32)
        assert v.node.shape == (2, 5, 3, 4)
        assert v.label == v.node.label == '(2, 5, 3, 4), float32'
        assert v.grad_var is None

    def test_standard_layout(self):
        v = _var([1, 2])
        assert v.layout is None
        assert chainer.Variable(layout=None).layout is None

    def test_too_few_axes(self):
        with pytest.raises(AssertionError):
            chainer.Variable(numpy.zeros((2, 3), numpy.float32),
                             layout=_LAST_X)

    @pytest.mark.parametrize('action, message', [
        (lambda v: v.array, 'retrieve the underlying array from'),
        (lambda v: v.data, 'retrieve the underlying array from'),
        (len, 'retrieve the underlying array from'),
        (repr, 'retrieve the underlying array from'),
        (str, 'retrieve the underlying array from'),
        (lambda v: v.item(), 'retrieve the underlying array from'),
        (lambda v: setattr(v, 'array', v.raw_array),
         'set the underlying array of'),
        # (Chainer 7.8.1 raised AttributeError here until the thread had
        # once allowed the access; see the migration guide.)
        (lambda v: v.grad, 'retrieve the gradient array of'),
        (lambda v: setattr(v, 'grad', v.raw_array),
         'set the gradient array of'),
    ])
    def test_direct_access_is_refused(self, action, message):
        v = chainer.Variable(_channel_last(), layout=_LAST_X)
        with pytest.raises(RuntimeError) as e:
            action(v)
        assert str(e.value) == (
            'Cannot directly {} a variable with non-standard layout.'.format(
                message))

    def test_allowed_access(self):
        x = _channel_last()
        v = chainer.Variable(x, layout=_LAST_X)
        with chainer.variable._AllowArrayAccessWithNonstandardLayout():
            assert v.array is x
            assert v.grad is None
            v.grad = numpy.ones_like(x)
        assert v.grad_var.layout == _LAST_X
        assert v.grad_var.shape == (2, 5, 3, 4)
        with pytest.raises(RuntimeError):
            v.array

    def test_copies_and_devices_keep_the_layout(self):
        v = chainer.Variable(_channel_last(), layout=_LAST_X)
        w = copy.copy(v)
        assert w.layout == _LAST_X and w.node.shape == (2, 5, 3, 4)
        # A deep copy (or a pickle) reads the array, as Chainer's does.
        with pytest.raises(RuntimeError, match='non-standard layout'):
            copy.deepcopy(v)
        v.to_device('@numpy')
        assert v.layout == _LAST_X and v.shape == (2, 5, 3, 4)

    def test_as_layout(self):
        x = _channel_last()
        v = chainer.Variable(x, layout=_LAST_X)
        y = v.as_layout(None)
        assert y.layout is None
        numpy.testing.assert_array_equal(y.array, x.transpose(0, 3, 1, 2))
        assert v.as_layout(_LAST_X) is v

    def test_gradient_of_a_node_is_checked_in_the_raw_shape(self):
        v = chainer.Variable(_channel_last(), layout=_LAST_X)
        chainer.variable._check_grad_type(
            None, v.node, True, numpy.zeros((2, 3, 4, 5), numpy.float32))
        with pytest.raises(ValueError, match='Shape of data and grad'):
            chainer.variable._check_grad_type(
                None, v.node, True, numpy.zeros((2, 5, 4, 3), numpy.float32))


class TestParameterLayout:

    def test_array_is_stored_as_given(self):
        # The array given, or made for ``shape``, is the raw one.
        for p in (
                chainer.Parameter(_channel_last(), layout=_LAST_W),
                chainer.Parameter(initializers.One(), (2, 3, 4, 5),
                                  layout=_LAST_W)):
            assert p.layout == _LAST_W
            assert p.shape == (2, 5, 3, 4)
            assert p.raw_array.shape == (2, 3, 4, 5)

    def test_initialize_makes_the_semantic_shape(self):
        p = chainer.Parameter(initializers.Constant(2), layout=_LAST_W)
        assert p.layout == _LAST_W and p.raw_array is None
        p.initialize((2, 3, 4, 5))
        assert p.shape == p.node.shape == (2, 3, 4, 5)
        assert p.raw_array.shape == (2, 4, 5, 3)
        with chainer.variable._AllowArrayAccessWithNonstandardLayout():
            assert p.grad.shape == (2, 4, 5, 3)
            assert numpy.isnan(p.grad).all()
        assert (p.raw_array == 2).all()

    def test_update_with_an_elementwise_rule(self):
        p = chainer.Parameter(numpy.zeros((2, 3, 4, 5), numpy.float32),
                              layout=_LAST_W)
        link = chainer.Link()
        with link.init_scope():
            link.p = p
        optimizer = chainer.optimizers.SGD(lr=0.5)
        optimizer.setup(link)
        with chainer.variable._AllowArrayAccessWithNonstandardLayout():
            p.grad = numpy.ones((2, 3, 4, 5), numpy.float32)
        optimizer.update()
        numpy.testing.assert_array_equal(p.raw_array, -0.5)
        # The cleared gradient is given back as zeros, in the raw shape.
        p.cleargrad()
        optimizer.update()
        assert p.grad_var.raw_array.shape == (2, 3, 4, 5)

    def test_update_with_another_rule_is_refused(self):
        p = chainer.Parameter(numpy.zeros((2, 3, 4, 5), numpy.float32),
                              layout=_LAST_W)

        class Rule(chainer.UpdateRule):
            def update_core_cpu(self, param):
                pass

        p.update_rule = Rule()
        with pytest.raises(RuntimeError, match='non-elementwise update rule'):
            p.update()

    def test_signature(self):
        params = inspect.signature(chainer.Parameter).parameters
        assert list(params) == ['initializer', 'shape', 'name', 'layout']
        assert params['layout'].kind is inspect.Parameter.KEYWORD_ONLY


def test_chainerx_members_without_chainerx():
    v = _var([1, 2])
    with pytest.raises(ValueError) as e:
        v.chx_array
    assert str(e.value) == (
        'chx_array is not available for Variable with non-ChainerX array.')
    with pytest.raises(RuntimeError, match='^ChainerX is not available.$'):
        v.to_chx()
    with pytest.raises(RuntimeError, match='^ChainerX is not available.$'):
        chainer.Variable().to_chx()
    assert v.from_chx() is None
    assert v.device == chainer.get_device('@numpy')
    assert not v._has_chainerx_array


def test_variable_node_data_is_a_property():
    assert isinstance(chainer.variable.VariableNode.data, property)
    v = _var([1, 2])
    node = v.node
    assert node.data is None
    array = numpy.zeros((3, 1), numpy.float64)
    node.data = array
    assert node.data is array
    assert (node.shape, node.dtype) == ((3, 1), numpy.float64)
    node.data = None
    assert node.shape is None and node.dtype is None


def test_parameter_initializer_is_an_attribute():
    assert chainer.Parameter.initializer is None
    p = chainer.Parameter()
    assert isinstance(p.initializer, initializers.NaN)
    p.initializer = initializers.Constant(3)
    p.initialize((2,))
    numpy.testing.assert_array_equal(p.array, [3, 3])


def test_getitem_parameter_names():
    assert list(inspect.signature(chainer.Variable.__getitem__).parameters) \
        == ['x', 'slices']
