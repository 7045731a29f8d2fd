import gc
import inspect

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.utils import type_check


class Scale(chainer.FunctionNode):
    """y = a * x, with a check that x is float."""

    def __init__(self, a):
        self.a = a

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 1)

    def forward(self, inputs):
        return inputs[0] * self.a,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self.a,


class SplitTwo(chainer.FunctionNode):
    """Returns (2x, 3x), keeping its outputs."""

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0, 1))
        return x * 2, x * 3

    def backward(self, indexes, grad_outputs):
        gy0, gy1 = grad_outputs
        gx = None
        if gy0 is not None:
            gx = gy0 * 2
        if gy1 is not None:
            gx = gy1 * 3 if gx is None else gx + gy1 * 3
        return gx,


def _var(values, dtype=numpy.float32, **kwargs):
    return chainer.Variable(numpy.asarray(values, dtype=dtype), **kwargs)


class TestApply:

    def test_outputs_and_links(self):
        x = _var([1, 2])
        node = Scale(3.0)
        y, = node.apply((x,))
        numpy.testing.assert_allclose(y.array, [3, 6])
        assert y.creator_node is node
        assert node.inputs == (x.node,)
        assert node.outputs[0]() is y.node
        assert node.rank == 0
        assert y.rank == 1
        assert node.label == 'Scale'

    def test_array_inputs_are_constants(self):
        y, = Scale(2.0).apply((numpy.ones(2, numpy.float32),))
        assert not y.requires_grad
        # Linked all the same, as the original links every node while
        # backprop is enabled.
        assert isinstance(y.creator_node, Scale)
        assert y.rank == 1

    def test_no_backprop_mode_keeps_requires_grad(self):
        x = _var([1, 2])
        with chainer.no_backprop_mode():
            y, = Scale(2.0).apply((x,))
        assert y.requires_grad
        assert y.creator_node is None

    def test_forward_must_return_tuple(self):
        class Bad(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0]

        with pytest.raises(TypeError, match='must be a tuple'):
            Bad().apply((_var([1]),))

    def test_forward_must_return_arrays(self):
        class Bad(chainer.FunctionNode):
            def forward(self, inputs):
                return 1.0,

        with pytest.raises(TypeError, match='tuple of ndarrays'):
            Bad().apply((_var([1]),))

    def test_non_array_input(self):
        with pytest.raises(TypeError):
            Scale(1.0).apply((1.0,))

    def test_default_forward_dispatches_to_cpu(self):
        class CpuOnly(chainer.FunctionNode):
            def forward_cpu(self, inputs):
                return inputs[0] + 1,

        y, = CpuOnly().apply((_var([1]),))
        numpy.testing.assert_allclose(y.array, [2])

    def test_default_backward_gives_none(self):
        class NoGrad(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] + 1,

        x = _var([1, 2])
        F.sum(NoGrad().apply((x,))[0] * x).backward()
        numpy.testing.assert_allclose(x.grad, [2, 3])


class TestTypeCheck:

    def test_invalid_dtype_message(self):
        with pytest.raises(type_check.InvalidType) as e:
            Scale(1.0).apply((numpy.array([1, 2], numpy.int32),))
        message = str(e.value)
        assert 'Invalid operation is performed in: Scale (Forward)' in message
        assert 'Expect: x.dtype.kind == f' in message
        assert 'Actual: i != f' in message

    def test_invalid_ndim_message(self):
        with pytest.raises(type_check.InvalidType) as e:
            Scale(1.0).apply((numpy.array(1, numpy.float32),))
        assert 'Expect: x.ndim >= 1' in str(e.value)
        assert 'Actual: 0 < 1' in str(e.value)

    def test_type_check_off(self):
        with chainer.using_config('type_check', False):
            y, = Scale(2.0).apply((numpy.array([1, 2], numpy.int32),))
        numpy.testing.assert_array_equal(y.array, [2, 4])

    def test_shape_mismatch_in_add(self):
        with pytest.raises(type_check.InvalidType):
            _var([1, 2]) + _var([1, 2, 3])

    def test_dtype_mismatch_in_add(self):
        with pytest.raises(type_check.InvalidType):
            _var([1, 2]) + _var([1, 2], numpy.float64)


class TestRetention:

    def test_retained_outputs_recreated_when_dropped(self):
        x = _var([1, 2])
        node = SplitTwo()
        y0, y1 = node.apply((x,))
        del y0
        gc.collect()
        retained = node.get_retained_outputs()
        numpy.testing.assert_allclose(retained[0].array, [2, 4])
        assert retained[0].creator_node is node
        assert retained[1] is y1

    def test_output_data(self):
        node = SplitTwo()
        x = _var([1, 2])
        node.apply((x,))
        out = node.output_data
        numpy.testing.assert_allclose(out[1], [3, 6])

    def test_unused_output_gets_none_grad(self):
        x = _var([1, 2])
        y0, y1 = SplitTwo().apply((x,))
        F.sum(y1).backward()
        numpy.testing.assert_allclose(x.grad, [3, 3])

    def test_get_retained_inputs_none(self):
        node = Scale(2.0)
        node.apply((_var([1]),))
        assert node.get_retained_inputs() == ()


class TestBackwardContract:

    def test_all_inputs_form(self):
        class Mul2(chainer.FunctionNode):
            def forward(self, inputs):
                self.retain_inputs((0, 1))
                a, b = inputs
                return a * b,

            def backward(self, indexes, grad_outputs):
                a, b = self.get_retained_inputs()
                gy, = grad_outputs
                return gy * b, gy * a

        a = _var([1, 2])
        b = _var([3, 4], requires_grad=False)
        F.sum(Mul2().apply((a, b))[0]).backward()
        numpy.testing.assert_allclose(a.grad, [3, 4])
        assert b.grad is None

    def test_wrong_number_of_grads(self):
        class Bad(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 2,

            def backward(self, indexes, grad_outputs):
                g = grad_outputs[0]
                return g, g, g

        x = _var([1, 2], numpy.float64)
        with pytest.raises(ValueError, match='3 != expected 1') as e:
            F.sum(Bad().apply((x,))[0]).backward()
        assert 'input 0: shape=(2,) dtype=float64' in str(e.value)

    def test_wrong_grad_dtype(self):
        class Bad(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 2,

            def backward(self, indexes, grad_outputs):
                return chainer.Variable(numpy.zeros(2, numpy.float32)),

        x = _var([1, 2], numpy.float64)
        with pytest.raises(TypeError, match='Dtype of data and grad') as e:
            F.sum(Bad().apply((x,))[0]).backward()
        assert 'Function `Bad` (Bad) has a bug' in str(e.value)

    def test_wrong_grad_shape(self):
        class Bad(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 2,

            def backward(self, indexes, grad_outputs):
                return chainer.Variable(numpy.zeros(3, numpy.float32)),

        x = _var([1, 2])
        y, = Bad().apply((x,))
        y.grad = numpy.ones(2, numpy.float32)
        with pytest.raises(ValueError, match='Shape of data and grad'):
            y.backward()

    def test_backward_accumulate_override(self):
        seen = []

        class Acc(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 2,

            def backward_accumulate(self, indexes, grad_outputs,
                                    grad_inputs):
                seen.append(grad_inputs)
                gx = grad_outputs[0] * 2
                if grad_inputs[0] is not None:
                    gx = gx + grad_inputs[0]
                return gx,

        x = _var([1, 2])
        h = x * 1
        y, = Acc().apply((h,))
        # Both nodes have rank 1; the one reached first runs first.
        F.sum(h * 5 + y).backward()
        numpy.testing.assert_allclose(x.grad, [7, 7])
        numpy.testing.assert_allclose(seen[0][0].array, [5, 5])

    def test_lazy_grad_sum_gives_same_result(self):
        x = _var([1, 2, 3])
        with chainer.using_config('lazy_grad_sum', True):
            h = x * 1
            y = F.sum(h * 2 + h * 3 + h * h)
        y.backward()
        numpy.testing.assert_allclose(x.grad, 5 + 2 * x.array)


class TestHooks:

    def test_local_hook_calls(self):
        calls = []

        class Hook(chainer.FunctionHook):
            name = 'rec'

            def added(self, function):
                calls.append(('added', function is not None))

            def forward_preprocess(self, function, in_data):
                calls.append(('fpre', function.label))

            def forward_postprocess(self, function, in_data):
                calls.append(('fpost', function.label))

            def backward_preprocess(self, function, in_data, out_grad):
                calls.append(('bpre', function.label))

            def backward_postprocess(self, function, in_data, out_grad):
                calls.append(('bpost', function.label))

            def deleted(self, function):
                calls.append(('deleted', function is not None))

        node = Scale(2.0)
        hook = Hook()
        node.add_hook(hook)
        with pytest.raises(KeyError):
            node.add_hook(hook)
        x = _var([1, 2])
        y, = node.apply((x,))
        y.grad = numpy.ones(2, numpy.float32)
        y.backward()
        node.delete_hook('rec')
        with pytest.raises(KeyError):
            node.delete_hook('rec')
        assert calls == [
            ('added', True), ('fpre', 'Scale'), ('fpost', 'Scale'),
            ('bpre', 'Scale'), ('bpost', 'Scale'), ('deleted', True)]

    def test_global_hook(self):
        labels = []

        class Hook(chainer.FunctionHook):
            def forward_preprocess(self, function, in_data):
                labels.append(function.label)

        x = _var([1, 2])
        with Hook():
            Scale(2.0).apply((x,))
            with pytest.raises(KeyError, match='already exists'):
                with Hook():
                    pass
        Scale(2.0).apply((x,))
        assert labels == ['Scale']
        assert len(chainer.get_function_hooks()) == 0

    def test_add_non_hook(self):
        with pytest.raises(TypeError):
            Scale(1.0).add_hook(object())


class TestDebugMode:

    def test_nan_in_forward(self):
        x = _var([-1.0])
        with chainer.using_config('debug', True):
            with pytest.raises(RuntimeError, match='NaN is detected on '
                                                   'forward computation of '
                                                   'Sqrt'):
                class Sqrt(chainer.FunctionNode):
                    def forward(self, inputs):
                        with numpy.errstate(invalid='ignore'):
                            return numpy.sqrt(inputs[0]),

                Sqrt().apply((x,))

    def test_nan_in_backward(self):
        class NanGrad(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 1,

            def backward(self, indexes, grad_outputs):
                gy = grad_outputs[0].array
                return chainer.Variable(gy * numpy.float32(numpy.nan)),

        x = _var([1.0])
        with chainer.using_config('debug', True):
            y, = NanGrad().apply((x,))
            with pytest.raises(RuntimeError, match='NaN is detected on '
                                                   'backward computation of '
                                                   'NanGrad') as e:
                F.sum(y).backward()
        # The message itself names where the node was applied.
        assert 'Stacktrace of the function is below' in str(e.value)
        assert 'test_function_node.py' in str(e.value)

    def test_debug_helpers(self):
        assert not chainer.is_debug()
        with pytest.warns(DeprecationWarning):
            mode = chainer.DebugMode(True)
        with mode:
            assert chainer.is_debug()
        chainer.set_debug(True)
        try:
            assert chainer.config.debug
        finally:
            chainer.set_debug(False)


class TestUnchain:

    def test_unchain_node(self):
        x = _var([1, 2])
        node = Scale(2.0)
        y, = node.apply((x,))
        node.unchain()
        assert y.creator_node is None
        assert node.inputs is None


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
class TestScaleGradient:

    def test_check_backward(self):
        x = numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype)
        gy = numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype)
        options = {'atol': 1e-4, 'rtol': 1e-3}
        if self.dtype == numpy.float16:
            options = {'dtype': numpy.float64, 'atol': 5e-3, 'rtol': 5e-2}
        gradient_check.check_backward(
            lambda x: Scale(1.5).apply((x,)), x, gy, **options)

    def test_check_double_backward(self):
        x = numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype)
        gy = numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype)
        ggx = numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype)
        options = {'atol': 1e-3, 'rtol': 1e-3}
        if self.dtype == numpy.float16:
            options = {'atol': 5e-3, 'rtol': 5e-2}
        gradient_check.check_double_backward(
            lambda x: Scale(1.5).apply((x,))[0] ** 2, x, gy, ggx,
            dtype=numpy.float64, **options)



def test_none_output_becomes_empty_variable():
    class WithNone(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2, None

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * 2,

    x = _var([1, 2])
    y, nothing = WithNone().apply((x,))
    assert nothing.array is None
    F.sum(y).backward()
    numpy.testing.assert_allclose(x.grad, [2, 2])


testing.run_module(__name__, __file__)


class _Twice(chainer.Function):

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, inputs, grad_outputs):
        return grad_outputs[0] * 2,


class _TwiceNode(chainer.FunctionNode):

    def forward(self, inputs):
        return inputs[0] * 2,


class TestGraphLinking:

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


class TestGradFunction:

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


class TestCall:

    def test_builtin_node_called_raises(self):
        x = numpy.ones(3, numpy.float32)
        with pytest.raises(RuntimeError, match=r'\(ReLU\).*Use FunctionNode'
                           r'\.apply\(\) method instead\.\nFurthermore'):
            chainer.functions.activation.relu.ReLU()(x)

    def test_user_node_called_raises(self):
        with pytest.raises(RuntimeError, match=r'^A function class object '
                           r'\(Scale\) .* Use apply\(\) method instead\.$'):
            Scale(2.0)(numpy.ones(3, numpy.float32))


# Memory layouts and the ChainerX members: Chainer 7.8.1's behaviour with
# NumPy arrays.

class _Standard(chainer.FunctionNode):

    def forward(self, inputs):
        return tuple([x * 2 for x in inputs])


class TestLayouts:

    def test_unknown_before_apply(self):
        node = chainer.FunctionNode()
        with pytest.raises(AssertionError):
            node.input_layouts
        with pytest.raises(AssertionError):
            node.output_layouts

    def test_standard_after_apply(self):
        node = _Standard()
        x = numpy.zeros((2, 3), numpy.float32)
        node.apply((x, x))
        assert node.input_layouts == (None, None)
        assert node.output_layouts == (None, None)

    def test_output_layouts_must_be_a_tuple(self):
        node = chainer.FunctionNode()
        with pytest.raises(AssertionError):
            node.output_layouts = [None]
        node.output_layouts = (None,)
        assert node.output_layouts == (None,)

    def test_check_layout_forward(self):
        standard = chainer.Variable(numpy.zeros((2, 3, 4), numpy.float32))
        last = chainer.Variable(numpy.zeros((2, 3, 4), numpy.float32),
                                layout='CUDNN_CHANNEL_LAST_X')
        node = chainer.FunctionNode()
        assert node.check_layout_forward((standard,)) is None
        with pytest.raises(RuntimeError) as e:
            node.check_layout_forward((last, standard))
        assert str(e.value) == (
            'Inputs with non-standard layouts were given to a function '
            'without explicit `check_layout_forward` implementation.\n'
            'Function: FunctionNode\n'
            'Input layouts: CUDNN_CHANNEL_LAST_X, None\n')
        node.is_elementwise = True
        assert node.check_layout_forward((last, last)) is None
        with pytest.raises(RuntimeError, match='mixed memory layouts'):
            node.check_layout_forward((last, standard))

    def test_function_of_its_own_layouts(self):
        # A function that declares the layouts it takes and gives.
        class ChannelSum(chainer.FunctionNode):
            def check_layout_forward(self, inputs):
                self.seen = self.input_layouts

            def forward(self, inputs):
                x, = inputs
                layout = self.input_layouts[0]
                axis = x.ndim - 1 if layout is not None else 1
                self.output_layouts = (None,)
                return x.sum(axis=axis),

        x = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
        v = chainer.Variable(x, layout='CUDNN_CHANNEL_LAST_X')
        node = ChannelSum()
        y, = node.apply((v,))
        assert node.seen == ('CUDNN_CHANNEL_LAST_X',)
        assert y.layout is None
        numpy.testing.assert_array_equal(y.array, x.sum(axis=2))

    def test_type_check_sees_semantic_shapes(self):
        seen = []

        class Record(chainer.FunctionNode):
            is_elementwise = True

            def check_type_forward(self, in_types):
                seen.append(in_types[0].shape)

            def forward(self, inputs):
                return inputs[0] + 0,

        v = chainer.Variable(numpy.zeros((2, 4, 5, 3), numpy.float32),
                             layout='CUDNN_CHANNEL_LAST_X')
        y, = Record().apply((v,))
        assert seen == [(2, 3, 4, 5)]
        assert y.layout == 'CUDNN_CHANNEL_LAST_X'


def test_chainerx_members_without_chainerx():
    node = chainer.FunctionNode()
    assert node.chainerx_device is None
    assert node.forward_chainerx((numpy.zeros(1),)) is chainer.Fallback
    y = F.relu(numpy.ones(2, numpy.float32))
    assert y.creator.chainerx_device is None


def test_static_forward_optimizations():
    from chainer import function_node
    from chainer.graph_optimizations import static_graph_utilities
    assert function_node.static_forward_optimizations is \
        static_graph_utilities.static_forward_optimizations
    assert list(inspect.signature(
        function_node.static_forward_optimizations).parameters) == [
            'func', 'inputs']
