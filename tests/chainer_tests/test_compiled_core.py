"""The compiled bookkeeping of FunctionNode.apply and backward against the
Python one: each scenario runs with both and must give the same values,
gradients, graph and errors."""

import gc
import os
import subprocess
import sys
import weakref

import numpy
import pytest

import chainer
from chainer import _compiled_core
import chainer.functions as F
from chainer.functions.math import basic_math
from chainer.utils import type_check


CORES = ('python', 'compiled')


@pytest.fixture
def use_core():
    """``use_core(name)`` switches to that bookkeeping until the test ends.
    """
    if _compiled_core.compiled_core is None:
        pytest.skip('the compiled core is off (CHAINER_USE_COMPILED_CORE)')

    def use(name):
        _compiled_core.use(
            _compiled_core.python_core if name == 'python'
            else _compiled_core.compiled_core)

    yield use
    _compiled_core.use(_compiled_core.compiled_core)


def _both(use_core, scenario):
    results = []
    for name in CORES:
        use_core(name)
        results.append(scenario())
    return results


def _assert_same(expected, actual):
    if isinstance(expected, (tuple, list)):
        assert type(expected) is type(actual)
        assert len(expected) == len(actual)
        for e, a in zip(expected, actual):
            _assert_same(e, a)
    elif isinstance(expected, numpy.ndarray):
        assert type(actual) is numpy.ndarray
        assert expected.dtype == actual.dtype
        assert expected.flags.f_contiguous == actual.flags.f_contiguous
        numpy.testing.assert_array_equal(expected, actual)
    else:
        assert expected == actual


def _same(use_core, scenario):
    expected, actual = _both(use_core, scenario)
    _assert_same(expected, actual)
    return actual


def _error(use_core, scenario):
    errors = []
    for name in CORES:
        use_core(name)
        with pytest.raises(Exception) as info:
            scenario()
        errors.append(info.value)
    expected, actual = errors
    assert type(expected) is type(actual)
    assert str(expected) == str(actual)
    return actual


class _Recorded(chainer.FunctionNode):
    """x * w + b with every input retained; logs the order of backward."""

    def __init__(self, log, name):
        self.log = log
        self.name = name

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        x, w = inputs
        return x * w, x + w

    def backward(self, indexes, grad_outputs):
        self.log.append((self.name, indexes))
        x, w = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, gz = grad_outputs
        ret = []
        for i in indexes:
            g = (gy * (w if i == 0 else x)) if gy is not None else None
            if gz is not None:
                g = gz if g is None else g + gz
            ret.append(g)
        return tuple(ret)


def test_compiled_core_is_in_use():
    if _compiled_core.compiled_core is None:
        pytest.skip('the compiled core is off')
    assert chainer.FunctionNode.apply is _compiled_core.compiled_core[0]
    assert chainer._backprop.backprop_to_all is \
        _compiled_core.compiled_core[1]


def test_python_core_when_switched_off():
    code = ('import chainer; from chainer import _compiled_core as c; '
            'from chainer import _core_fields as f; '
            'assert c.compiled_core is None; '
            'assert chainer.FunctionNode.apply is c.python_core[0]; '
            'assert chainer.Variable.__base__ is f._PythonVariableFields; '
            'assert not chainer.config.use_compiled_core')
    env = dict(os.environ, CHAINER_USE_COMPILED_CORE='0')
    subprocess.run([sys.executable, '-c', code], env=env, check=True)


def test_independent_of_the_kernels_switch():
    # The kernels off leave the compiled core as it is.
    code = ('import chainer; from chainer import _compiled_core as c; '
            'from chainer import _core_fields as f; '
            'assert (c.compiled_core is None) == (f.compiled is None); '
            'assert chainer.config.use_compiled_core')
    env = dict(os.environ, CHAINER_USE_CHAINERX_CPP='never')
    env.pop('CHAINER_USE_COMPILED_CORE', None)
    subprocess.run([sys.executable, '-c', code], env=env, check=True)


def test_graph_and_gradients(use_core):
    def scenario():
        log = []
        rng = numpy.random.RandomState(0)
        x = chainer.Variable(rng.rand(3, 2).astype(numpy.float32))
        w = chainer.Variable(rng.rand(3, 2).astype(numpy.float32))
        w.grad = numpy.ones((3, 2), numpy.float32)  # accumulated into
        y, z = _Recorded(log, 'a').apply((x, w))
        u, v = _Recorded(log, 'b').apply((y, x))   # x used twice
        h = F.sum(u * 2.0 + z) + F.sum(v) + F.sum(x)
        h.backward(loss_scale=2.0)
        return ([x.grad, w.grad, log, x._loss_scale, y.grad,
                 y.creator_node.rank, h.creator_node.rank, h.rank,
                 y.requires_grad, y.creator_node.inputs[0] is x.node])
    _same(use_core, scenario)


def test_retain_grad_and_constants(use_core):
    def scenario():
        x = chainer.Variable(numpy.arange(4, dtype=numpy.float64))
        c = numpy.full(4, 3.0)
        y = x * c                  # an array input: a constant
        z = F.tanh(y) * y
        loss = F.sum(z)
        loss.backward(retain_grad=True)
        return [x.grad, y.grad, z.grad, loss.grad,
                y.creator_node.inputs[1].requires_grad]
    _same(use_core, scenario)


def test_iterable_inputs_and_arrays(use_core):
    def scenario():
        a = numpy.ones(3, numpy.float32)
        ys = F.identity(a).creator_node.apply(iter([a]))
        y = F.identity(a)
        return [y.requires_grad, y.creator_node is not None, ys[0].array,
                ys[0].requires_grad]
    _same(use_core, scenario)


def test_no_backprop_mode(use_core):
    def scenario():
        x = chainer.Variable(numpy.ones(2, numpy.float32))
        with chainer.no_backprop_mode():
            y = x * 3.0
        return [y.creator_node is None, y.requires_grad, y.rank, y.array]
    _same(use_core, scenario)


def test_type_check_off(use_core):
    calls = []

    class Checked(chainer.FunctionNode):
        def check_type_forward(self, in_types):
            calls.append(1)

        def forward(self, inputs):
            return inputs[0] * 2,

    def scenario():
        del calls[:]
        x = numpy.ones(2, numpy.float32)
        Checked().apply((x,))
        with chainer.using_config('type_check', False):
            Checked().apply((x,))
        return len(calls)
    assert _same(use_core, scenario) == 1


def test_type_check_error(use_core):
    def scenario():
        F.sum(numpy.ones(2, numpy.int32)) * numpy.ones(3, numpy.float32)
    _error(use_core, scenario)


def test_type_check_sees_raw_arrays_in_the_light_mode(use_core):
    class Seen(chainer.FunctionNode):
        def check_type_forward(self, in_types):
            seen.append((type(in_types), type_check.in_light_mode(),
                         [type(t) for t in in_types]))
            type_check.expect(in_types[0].dtype == numpy.float32)

        def forward(self, inputs):
            return inputs[0] * 2,

    seen = []

    def scenario():
        del seen[:]
        Seen().apply((numpy.ones(2, numpy.float32),))
        with pytest.raises(type_check.InvalidType) as info:
            Seen().apply((numpy.ones(2, numpy.int32),))
        return seen[:], str(info.value), type_check.in_light_mode()
    light, message, left = _same(use_core, scenario)
    assert light[0] == (type_check.LightTypeInfoTuple, True,
                        [numpy.ndarray])
    # A failed light check runs again on expressions, for the message.
    assert light[2][:2] == (type_check.TypeInfoTuple, False)
    assert 'in_types[0].dtype == <class \'numpy.float32\'>' in message
    assert not left


class _ArgumentChecked(chainer.FunctionNode):
    check_type_forward = type_check._argument_check(('x', 'y'), True)

    def forward(self, inputs):
        return inputs[0] * 2,


@pytest.mark.parametrize('inputs, passes', [
    ((numpy.float32, numpy.int32), True),
    ((numpy.float16, numpy.float64), True),
    ((numpy.dtype('>f4'), numpy.float32), True),  # not a native dtype
    ((numpy.int32, numpy.float32), False),
    ((numpy.float32,), False),
    ((numpy.float32,) * 3, False),
], ids=['float32', 'float16', 'big-endian', 'int', 'fewer', 'more'])
def test_argument_checks_run_in_the_compiled_core(use_core, monkeypatch,
                                                  inputs, passes):
    # The compiled core decides the checks of type_check._argument_check
    # that pass itself, without calling them; the rest, and every check of
    # the Python core, calls check_type_forward (and so _argname).
    calls = []

    def argname(in_types, names):
        calls.append(type(in_types))
        return _argname(in_types, names)
    _argname = type_check._argname
    monkeypatch.setattr(type_check, '_argname', argname)
    arrays = tuple(numpy.ones(2, dtype) for dtype in inputs)

    def scenario():
        del calls[:]
        if passes:
            return _ArgumentChecked().apply(arrays)[0].array, calls[:]
        with pytest.raises(type_check.InvalidType) as info:
            _ArgumentChecked().apply(arrays)
        return str(info.value), calls[:]
    python, compiled = _both(use_core, scenario)
    _assert_same(python[0], compiled[0])
    if passes:
        assert python[1] == [type_check.LightTypeInfoTuple]
        expected = [] if inputs[0] != numpy.dtype('>f4') else python[1]
        assert compiled[1] == expected
    else:
        # The light check, then the check on expressions for the message.
        assert python[1] == compiled[1] == [
            type_check.LightTypeInfoTuple, type_check.TypeInfoTuple]


def test_check_of_the_node_itself_wins_over_an_argument_check(use_core):
    # A check_type_forward set on the node is the one called, as Python
    # looks attributes up, even where its class has an argument check.
    def scenario():
        node = _ArgumentChecked()
        seen = []

        def check_type_forward(in_types):
            seen.append(type(in_types))
            type_check.expect(in_types[0].dtype == numpy.float64)
        node.check_type_forward = check_type_forward
        x = numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float32)
        with pytest.raises(type_check.InvalidType) as info:
            node.apply(x)
        return seen, str(info.value)
    seen, message = _same(use_core, scenario)
    assert seen[0] == type_check.LightTypeInfoTuple
    assert 'float64' in message


@pytest.mark.parametrize('dtype, value, in_core', [
    (numpy.float32, 1.5, True),
    (numpy.float16, -3, True),
    (numpy.dtype('>f4'), 0.25, True),
    (numpy.float64, 0.0, False),  # zero is never kept (two signs)
    (numpy.float32, 1e300, False),  # not finite in float32: not kept
    (numpy.float32, numpy.float32(1.5), False),  # a NumPy scalar
    (numpy.int32, 2, False),  # cast as NumPy 1 did, by the Python code
], ids=['float32', 'float16', 'big-endian', 'zero', 'overflow',
        'numpy-scalar', 'int'])
@pytest.mark.parametrize('shape', [(3,), ()], ids=['vector', '0-d'])
def test_constant_operands_run_in_the_compiled_core(
        use_core, monkeypatch, dtype, value, in_core, shape):
    # The compiled core computes the forward and the new gradient of x + c,
    # x * c and c - x itself where the constant is kept, by the same NumPy
    # call as basic_math._with_constant; every other case calls it.
    calls = []

    def with_constant(op, x, v):
        calls.append(op.__name__)
        return _with_constant(op, x, v)
    _with_constant = basic_math._with_constant
    x_data = numpy.linspace(-1, 1, 3).astype(dtype)[:shape[0] if shape
                                                     else 1]
    x_data = x_data.reshape(shape)
    # (NumPy computes native arrays of big-endian ones, so that their
    # gradients would not fit.)
    floating = numpy.dtype(dtype).kind == 'f' and numpy.dtype(dtype).isnative

    def compute():
        x = chainer.Variable(x_data)
        y = value - (x * value + value)
        if floating:
            y.grad = numpy.ones_like(y.array)
            y.backward()
        return y.array, x.grad

    def scenario():
        with numpy.errstate(over='ignore', invalid='ignore'):
            compute()  # keeps the constants
            monkeypatch.setattr(basic_math, '_with_constant', with_constant)
            del calls[:]
            y, gx = compute()
            monkeypatch.undo()
        return y, gx, calls[:]
    python, compiled = _both(use_core, scenario)
    _assert_same(python[:2], compiled[:2])
    assert python[2] == (['mul', 'add', 'sub', 'mul'] if floating
                         else ['mul', 'add', 'sub'])
    assert compiled[2] == ([] if in_core else python[2])


def test_constant_operands_give_the_same_errors(use_core):
    # An overflow raised by NumPy in the compiled core's computation is the
    # error of the Python method.
    x = numpy.full(2, 1000, numpy.float16)

    def scenario():
        with numpy.errstate(over='ignore'):
            basic_math.MulConstant(100.0).apply((x,))  # keeps the constant
        with numpy.errstate(over='raise'):
            basic_math.MulConstant(100.0).apply((x,))
    assert type(_error(use_core, scenario)) is FloatingPointError


def test_forward_of_the_node_itself_wins_over_a_constant_forward(use_core):
    # A forward set on the node (or overridden in a subclass) is the one
    # called, even where its class's forward is one the compiled core
    # computes.
    class Tripled(basic_math.MulConstant):
        def forward(self, inputs):
            return inputs[0] * 3,

    def scenario():
        x = numpy.arange(3, dtype=numpy.float32)
        node = basic_math.MulConstant(2.0)
        node.forward = lambda inputs: (inputs[0] * 4,)
        return (basic_math.MulConstant(2.0).apply((x,))[0].array,
                node.apply((x,))[0].array,
                Tripled(2.0).apply((x,))[0].array)
    doubled, quadrupled, tripled = _same(use_core, scenario)
    numpy.testing.assert_array_equal(doubled, [0, 2, 4])
    numpy.testing.assert_array_equal(quadrupled, [0, 4, 8])
    numpy.testing.assert_array_equal(tripled, [0, 3, 6])


def test_other_errors_of_the_type_check_leave_the_light_mode(use_core):
    class Failing(chainer.FunctionNode):
        def check_type_forward(self, in_types):
            raise ValueError('not a type error')

    def scenario():
        with pytest.raises(ValueError, match='not a type error'):
            Failing().apply((numpy.ones(2, numpy.float32),))
        return type_check.in_light_mode()
    assert _same(use_core, scenario) is False


def test_overridden_data_type_check_is_called(use_core):
    class OwnCheck(chainer.FunctionNode):
        def _check_data_type_forward(self, in_data):
            calls.append(len(in_data))

        def check_type_forward(self, in_types):
            raise AssertionError('replaced by _check_data_type_forward')

        def forward(self, inputs):
            return inputs[0] * 2,

    calls = []

    def scenario():
        del calls[:]
        OwnCheck().apply((numpy.ones(2, numpy.float32),))
        return calls[:]
    assert _same(use_core, scenario) == [1]


def test_light_mode_is_per_thread_during_apply(use_core):
    # While one thread checks types in the light mode, another is not in it.
    import threading
    inside, other_done = threading.Event(), threading.Event()
    observed = []

    class Waiting(chainer.FunctionNode):
        def check_type_forward(self, in_types):
            inside.set()
            assert other_done.wait(10)

        def forward(self, inputs):
            return inputs[0] * 2,

    def other():
        assert inside.wait(10)
        observed.append(type_check.in_light_mode())
        other_done.set()

    for name in CORES:
        use_core(name)
        inside.clear()
        other_done.clear()
        thread = threading.Thread(target=other)
        thread.start()
        Waiting().apply((numpy.ones(2, numpy.float32),))
        thread.join()
    assert observed == [False, False]


@pytest.mark.parametrize('outputs', [
    lambda x: [x],            # not a tuple
    lambda x: (x, 1),         # not an array
])
def test_bad_forward_outputs(use_core, outputs):
    class Bad(chainer.FunctionNode):
        def forward(self, inputs):
            return outputs(inputs[0])

    error = _error(use_core, lambda: Bad().apply(
        (numpy.ones(2, numpy.float32),)))
    assert isinstance(error, TypeError)


def test_none_output(use_core):
    class WithNone(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2, None

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * 2,

    def scenario():
        x = chainer.Variable(numpy.ones(2, numpy.float32))
        y, n = WithNone().apply((x,))
        F.sum(y).backward()
        return [n.array is None, n.node.shape is None, x.grad]
    _same(use_core, scenario)


def test_reapplied_node_forgets_retained(use_core):
    class Once(chainer.FunctionNode):
        first = True

        def forward(self, inputs):
            if Once.first:
                self.retain_inputs((0,))
                self.retain_outputs((0,))
                Once.first = False
            return inputs[0] + 1,

    def scenario():
        Once.first = True
        node = Once()
        x = chainer.Variable(numpy.ones(2, numpy.float32))
        node.apply((x,))
        node.apply((x,))
        return [node._input_indexes_to_retain,
                node._output_indexes_to_retain]
    assert _same(use_core, scenario) == [None, None]


def test_retained_output_outlives_variable(use_core):
    def scenario():
        x = chainer.Variable(numpy.array([0.5, -1.0], numpy.float32))
        loss = F.sum(F.sigmoid(x))   # sigmoid retains its output
        gc.collect()
        loss.backward()
        return x.grad
    _same(use_core, scenario)


def test_outputs_freed_with_graph(use_core):
    def scenario():
        x = chainer.Variable(numpy.ones(2, numpy.float32))
        y = x * 2.0
        ref = weakref.ref(y.creator_node)
        node_ref = weakref.ref(y.node)
        del y
        gc.collect()
        return [ref() is None, node_ref() is None]
    assert _same(use_core, scenario) == [True, True]


def test_hooks_see_every_call(use_core):
    class Hook(chainer.FunctionHook):
        def __init__(self):
            self.calls = []

        def forward_preprocess(self, function, in_data):
            self.calls.append(('fwd', function.label))

        def backward_postprocess(self, function, in_data, out_grad):
            self.calls.append(('bwd', function.label))

    def scenario():
        hook = Hook()
        x = chainer.Variable(numpy.ones(2, numpy.float32))
        with hook:
            loss = F.sum(x * 2.0)
            loss.backward()
        local = Hook()
        y = x * 3.0
        y.creator_node.add_hook(local)
        F.sum(y).backward()
        return [hook.calls, local.calls]
    _same(use_core, scenario)


def test_backward_accumulate_override(use_core):
    class Accumulating(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
            gx = grad_outputs[0] * 2
            g, = grad_inputs
            return (gx if g is None else gx + g),

    def scenario():
        x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
        y, = Accumulating().apply((x,))
        F.sum(y * y + x).backward()
        return x.grad
    _same(use_core, scenario)


def test_double_backprop(use_core):
    def scenario():
        x = chainer.Variable(numpy.array([0.3, -0.7], numpy.float64))
        y = F.sum(F.sin(x) * x)
        gx, = chainer.grad([y], [x], enable_double_backprop=True)
        F.sum(gx * gx).backward()
        x2 = chainer.Variable(x.array.copy())
        F.sum(x2 * x2 * x2).backward(enable_double_backprop=True)
        gg = x2.grad_var
        x2.cleargrad()
        F.sum(gg).backward()
        return [gx.array, x.grad, x2.grad]
    _same(use_core, scenario)


def test_wrong_number_of_gradients(use_core):
    class Wrong(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] + inputs[1],

        def backward(self, indexes, grad_outputs):
            return grad_outputs * 3

    def scenario():
        x = chainer.Variable(numpy.ones(2, numpy.float32))
        w = chainer.Variable(numpy.ones(2, numpy.float32))
        y, = Wrong().apply((x, w))
        F.sum(y).backward()
    assert isinstance(_error(use_core, scenario), ValueError)


@pytest.mark.parametrize('bad', ['shape', 'dtype', 'type'])
def test_wrong_gradient(use_core, bad):
    class Wrong(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            gy, = grad_outputs
            if bad == 'shape':
                return chainer.Variable(numpy.ones(3, numpy.float32)),
            if bad == 'dtype':
                return chainer.Variable(gy.array.astype(numpy.float64)),
            return chainer.Variable(numpy.float32(1)),

    def scenario():
        x = chainer.Variable(numpy.ones(2, numpy.float32))
        y, = Wrong().apply((x,))
        F.sum(y).backward()
    _error(use_core, scenario)


def test_no_output_gradient(use_core):
    def scenario():
        x = chainer.Variable(numpy.ones(2, numpy.float32))
        (x * 2.0).backward()
    error = _error(use_core, scenario)
    assert isinstance(error, TypeError)
    assert error.__cause__ is not None


def test_dead_output_and_unused_output(use_core):
    def scenario():
        x = chainer.Variable(numpy.arange(4, dtype=numpy.float32))
        a, b = F.split_axis(x, 2, 0)
        del b
        F.sum(a * a).backward()
        return x.grad
    _same(use_core, scenario)


def test_old_style_function(use_core):
    class Twice(chainer.Function):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, inputs, grad_outputs):
            return grad_outputs[0] * 2,

    def scenario():
        x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
        y = Twice()(x)
        F.sum(y * y).backward()
        return x.grad
    _same(use_core, scenario)


def test_debug_mode_finds_nan(use_core):
    def scenario():
        x = chainer.Variable(numpy.array([-1.0], numpy.float32))
        with chainer.using_config('debug', True):
            F.log(x)
    assert isinstance(_error(use_core, scenario), RuntimeError)


def test_linear_sums_in_place(use_core):
    # Linear adds into the table's sums (the Python path of the step).
    def scenario():
        rng = numpy.random.RandomState(1)
        link = chainer.links.Linear(3, 4)
        link.W.array[...] = rng.rand(4, 3)
        x = chainer.Variable(rng.rand(5, 3).astype(numpy.float32))
        h = x
        for _ in range(3):
            h = F.tanh(link(h)[:, :3])
        link.cleargrads()
        F.sum(h).backward()
        return [x.grad, link.W.grad, link.b.grad]
    expected, actual = _both(use_core, scenario)
    for e, a in zip(expected, actual):
        numpy.testing.assert_allclose(e, a, rtol=1e-6, atol=1e-7)


def test_gradient_variables_made_from_arrays(use_core):
    # The gradient variables the traversal wraps around the arrays a node
    # gives (by backward, or by the in-place sums of an unobserved node):
    # each field as Variable(gx) sets it.
    def scenario():
        x = chainer.Variable(numpy.arange(4, dtype=numpy.float32))
        y = chainer.Variable(numpy.ones(4, dtype=numpy.float32))
        h = x * 3.0 + F.exp(y)
        h.grad = numpy.ones(4, dtype=numpy.float32)
        h.backward()
        fields = []
        for v in (x, y):
            g = v.grad_var
            node = g.node
            fields.append((
                type(g).__name__, g.requires_grad, g.name, g.creator,
                g.array, g.grad_var, g.layout, node.rank, node.name,
                node.creator_node, node.requires_grad, node.data,
                node.dtype, node.shape, node.get_variable_or_none() is g))
        return fields
    _same(use_core, scenario)


def test_no_reference_leaks(use_core):
    use_core('compiled')
    link = chainer.links.Linear(4, 3)
    x_data = numpy.ones((2, 4), numpy.float32)

    def step():
        x = chainer.Variable(x_data)
        h = x
        for _ in range(10):
            h = F.tanh(h * 1.5 + 0.5)
        F.sum(h).backward(retain_grad=True)
        a, b = F.split_axis(x, 2, 1)
        F.sum(a * 2.0).backward()
        link.cleargrads()
        F.sum(link(x)).backward()

    def live():
        gc.collect()
        kinds = (chainer.Variable, chainer.variable.VariableNode,
                 chainer.FunctionNode)
        return sum(isinstance(o, kinds) for o in gc.get_objects())

    def counts(n_steps):
        for _ in range(n_steps):
            step()
        return [live()] + [sys.getrefcount(v) for v in (None, True, False, 1)]

    # A reference or object lost per step would grow by 40 from the first
    # count to the second; caches filled on the way may add one or two.
    counts(5)
    before = counts(10)
    after = counts(50)
    assert all([b - a < 10 for a, b in zip(before, after)]), (before, after)


def test_keyword_and_wrong_arguments(use_core):
    def scenario():
        x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
        y, = F.identity(x).creator_node.apply(inputs=(x,))
        y.grad = numpy.ones(3, numpy.float32)
        chainer._backprop.backprop_to_all(
            [(y.node, y.grad_var)], retain_grad=False, loss_scale=None)
        return [y.array, x.grad]
    _same(use_core, scenario)
    _error(use_core, lambda: F.identity(numpy.ones(1)).creator_node.apply())
    _error(use_core, lambda: chainer._backprop.backprop_to_all([], False))


def test_apply_documented(use_core):
    import inspect
    use_core('compiled')
    node = F.identity(numpy.ones(1)).creator_node
    assert str(inspect.signature(node.apply)) == '(inputs)'
    assert chainer.FunctionNode.apply.__doc__ == \
        _compiled_core.python_core[0].__doc__


@pytest.mark.parametrize('seed', range(20))
def test_random_graphs_give_identical_gradients(use_core, seed):
    # Variables reused across random ops: the order in which the traversal
    # sums gradients shows in the last bits, so both must match exactly.
    def scenario():
        rng = numpy.random.RandomState(seed)
        leaves = [chainer.Variable(rng.uniform(-1, 1, (3, 4)).astype('f'))
                  for _ in range(3)]
        pool = list(leaves)
        for _ in range(25):
            op = rng.randint(6)
            a = pool[rng.randint(len(pool))]
            b = pool[rng.randint(len(pool))]
            if op == 0:
                h = a + b
            elif op == 1:
                h = a * b
            elif op == 2:
                h = F.tanh(a)
            elif op == 3:
                p, q = F.split_axis(a, 2, 1)
                h = F.concat((q, p), 1)
            elif op == 4:
                h = a * 0.5 + 1.0
            else:
                h = F.sigmoid(a) - b
            pool.append(h)
        loss = sum([F.sum(h) for h in pool[-4:]])
        retain = bool(rng.randint(2))
        loss.backward(retain_grad=retain)
        grads = [v.grad for v in leaves]
        if retain:
            grads += [h.grad for h in pool[3:]]
        return grads
    _same(use_core, scenario)


def test_variable_subclass_with_its_own_array_property(use_core):
    # As in Chainer 7.8 (whose apply reads ``Variable._data``), apply takes
    # the stored array, whatever a subclass's ``array`` property returns.
    class Doubled(chainer.Variable):
        @property
        def array(self):
            return self._data * 2

    def scenario():
        x = Doubled(numpy.arange(3, dtype=numpy.float32))
        y = x * 3.0
        F.sum(y).backward()
        return [y.array, x.grad]
    result = _same(use_core, scenario)
    numpy.testing.assert_array_equal(result[0], [0, 3, 6])


@pytest.mark.parametrize('base, field', [
    (chainer.Variable, '_data'),
    (chainer.Variable, '_grad_var'),
    (chainer.variable.VariableNode, '_creator_node'),
    (chainer.variable.VariableNode, 'shape'),
    (chainer.FunctionNode, 'rank'),
    (chainer.FunctionNode, '_retained_output_data'),
])
def test_subclass_cannot_define_a_field_again(base, field):
    # A field is the core's storage: a subclass defining it again (a
    # property, a slot, a class attribute) is refused.
    with pytest.raises(TypeError, match=field):
        type('Sub', (base,), {field: property(lambda self: None)})
    with pytest.raises(TypeError, match=field):
        type('Sub', (base,), {'__slots__': (field,)})
    with pytest.raises(TypeError, match=field):
        type('Sub', (base,), {field: 3})


def test_function_node_subclass_repeating_the_defaults(use_core):
    # Code written for Chainer 7.8.1 may repeat the class attributes of
    # FunctionNode; they are the values every node starts with.
    class Scale(chainer.FunctionNode):
        inputs = None
        rank = 0
        lazy_grad_sum = False

        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * 2,

    assert 'rank' not in vars(Scale)

    def scenario():
        x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
        y, = Scale().apply((x,))
        z, = Scale().apply((y,))
        F.sum(z).backward()
        return [z.array, x.grad, z.creator_node.rank,
                z.creator_node.inputs[0] is y.node]
    result = _same(use_core, scenario)
    assert result[2] == 1 and result[3]


def test_in_place_gradient_sums_run_in_the_compiled_traversal(
        use_core, monkeypatch):
    # A recurrent model: one Linear weight and one EmbedID table used at
    # every step, a sequence sliced step by step. Their nodes add their
    # gradients into the sums (FunctionNode._add_grad_into) in the compiled
    # traversal itself, with the Python traversal's results.
    calls = []
    python_add_into_sums = chainer._backprop._add_into_sums

    def recording(func, *args):
        calls.append(type(func).__name__)
        return python_add_into_sums(func, *args)
    monkeypatch.setattr(chainer._backprop, '_add_into_sums', recording)

    def scenario():
        rng = numpy.random.RandomState(0)
        W = chainer.Variable(rng.uniform(-1, 1, (8, 8)).astype('f'))
        E = chainer.Variable(rng.uniform(-1, 1, (20, 8)).astype('f'))
        xs = chainer.Variable(rng.uniform(-1, 1, (12, 4, 8)).astype('f'))
        ids = rng.randint(0, 20, (12, 4)).astype(numpy.int32)
        h = None
        for t in range(12):
            a = xs[t] + F.embed_id(ids[t], E)
            h = F.tanh(F.linear(a if h is None else a + h, W))
        F.sum(h * h).backward()
        return W.grad, E.grad, xs.grad

    del calls[:]
    use_core('python')
    expected = scenario()
    assert {'LinearFunction', 'EmbedIDFunction', 'GetItem'} <= set(calls)
    del calls[:]
    use_core('compiled')
    actual = scenario()
    assert calls == []
    for e, a in zip(expected, actual):
        numpy.testing.assert_array_equal(e, a)


def test_nodes_made_in_debug_mode_use_the_compiled_table(use_core,
                                                         monkeypatch):
    # Nodes applied in debug mode keep their stack, so the compiled
    # traversal (debug mode off by then) hands each to the Python step,
    # _run_backward, with its own table: the in-place sums protocol then
    # runs through the table's methods (own, owns, defer, settle, sum_list,
    # release), with the Python core's gradients.
    calls = []
    python_add_into_sums = chainer._backprop._add_into_sums

    def recording(func, indexes, grad_outputs, grad_inputs, table):
        calls.append(type(table).__name__)
        return python_add_into_sums(func, indexes, grad_outputs,
                                    grad_inputs, table)
    monkeypatch.setattr(chainer._backprop, '_add_into_sums', recording)

    def scenario():
        rng = numpy.random.RandomState(1)
        W = chainer.Variable(rng.uniform(-1, 1, (8, 8)).astype('f'))
        xs = chainer.Variable(rng.uniform(-1, 1, (10, 4, 8)).astype('f'))
        with chainer.using_config('debug', True):
            h = None
            for t in range(10):
                a = xs[t]
                h = F.tanh(F.linear(a if h is None else a + h, W))
            loss = F.sum(h * h)
        loss.backward()
        return W.grad, xs.grad

    use_core('python')
    expected = scenario()
    assert set(calls) == {'_GradTable'}
    del calls[:]
    use_core('compiled')
    actual = scenario()
    assert set(calls) == {'GradTable'}
    for e, a in zip(expected, actual):
        numpy.testing.assert_array_equal(e, a)


def _thread_scenario(seed, config_name, config_value):
    # A small recurrent graph under one thread's own configuration entry.
    rng = numpy.random.RandomState(seed)
    W = chainer.Variable(rng.uniform(-1, 1, (4, 4)).astype(numpy.float32))
    x = chainer.Variable(rng.uniform(-1, 1, (3, 4)).astype(numpy.float32))
    with chainer.using_config(config_name, config_value):
        h = x
        for _ in range(20):
            h = F.tanh(F.linear(h, W) * 0.75 + 0.25) + x * 0.5
        F.sum(h * h).backward()
        return [h.array, W.grad, x.grad, h.creator_node.rank]


def test_threads_give_the_serial_results(use_core):
    # Several threads apply and backprop at once, each with its own
    # configuration entries (kept per thread by the compiled core): every
    # result equals the same scenario run alone.
    import threading
    settings = [('lazy_grad_sum', True), ('lazy_grad_sum', False),
                ('type_check', False), ('use_compiled_core', False)] * 2
    for name in CORES:
        use_core(name)
        expected = [_thread_scenario(k, *settings[k])
                    for k in range(len(settings))]
        results = [None] * len(settings)
        barrier = threading.Barrier(len(settings))

        def run(k):
            barrier.wait()
            for _ in range(5):
                results[k] = _thread_scenario(k, *settings[k])

        threads = [threading.Thread(target=run, args=(k,))
                   for k in range(len(settings))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for k in range(len(settings)):
            _assert_same(expected[k], results[k])


def test_use_compiled_core_entry_sends_calls_to_python(use_core,
                                                       monkeypatch):
    # The Python apply checks every forward's outputs and the Python
    # traversal runs every node through _run_backward; the compiled core
    # does neither for plain NumPy nodes, unless the entry is off.
    use_core('compiled')
    calls = []

    def recorder(name, f):
        def recording(*args):
            calls.append(name)
            return f(*args)
        return recording
    monkeypatch.setattr(
        chainer.function_node, '_check_forward_outputs',
        recorder('apply', chainer.function_node._check_forward_outputs))
    monkeypatch.setattr(
        chainer._backprop, '_run_backward',
        recorder('backward', chainer._backprop._run_backward))

    def scenario():
        x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
        F.sum(F.relu(x) * x).backward()
        return x.grad

    expected = scenario()
    assert calls == []
    with chainer.using_config('use_compiled_core', False):
        numpy.testing.assert_array_equal(scenario(), expected)
    assert calls.count('apply') >= 3 and calls.count('backward') == 3
