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


def _three_uses(x):
    # x reaches the loss along three paths: its gradient is summed twice.
    return chainer.functions.sum(x * 2 + x * 3 + x * 4)


def test_sums_of_gradients_do_not_alias_earlier_gradients():
    x = chainer.Variable(numpy.ones(4, numpy.float32))
    _three_uses(x).backward()
    first = x.grad
    numpy.testing.assert_array_equal(first, numpy.full(4, 9, numpy.float32))
    # A second backward adds to x.grad with a new array, as Chainer does:
    # the array the first one left is not written into.
    _three_uses(x).backward()
    numpy.testing.assert_array_equal(first, numpy.full(4, 9, numpy.float32))
    numpy.testing.assert_array_equal(x.grad, numpy.full(4, 18, numpy.float32))
    assert x.grad is not first


def test_retained_gradient_of_a_shared_intermediate_is_complete():
    x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    h = x * 1
    loss = chainer.functions.sum(h * 2 + h * 3 + h * 4 + h * 5)
    loss.backward(retain_grad=True)
    numpy.testing.assert_array_equal(h.grad, numpy.full(3, 14, numpy.float32))
    numpy.testing.assert_array_equal(x.grad, numpy.full(3, 14, numpy.float32))
    assert h.grad is not x.grad


def test_grad_results_are_not_written_into_afterwards():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    gx, = chainer.grad([_three_uses(x)], [x])
    kept = gx.array.copy()
    gx2, = chainer.grad([_three_uses(x)], [x])
    numpy.testing.assert_array_equal(gx.array, kept)
    assert gx2.array is not gx.array


def test_sum_of_many_gradients_equals_a_plain_sum():
    rng = numpy.random.RandomState(0)
    x = chainer.Variable(rng.uniform(-1, 1, (3, 5)).astype(numpy.float32))
    ws = [rng.uniform(-1, 1, (3, 5)).astype(numpy.float32) for _ in range(6)]
    loss = chainer.functions.sum(sum(x * w for w in ws))
    loss.backward()
    numpy.testing.assert_allclose(x.grad, sum(ws), rtol=1e-6, atol=1e-6)


class _ScaledCopy(chainer.FunctionNode):
    # y = 3 x, whose gradient can be added into a running sum in place or
    # given as a new array; records which way each gradient went.

    def __init__(self, added):
        self.added = added

    def forward(self, inputs):
        return inputs[0] * 3,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 3,

    def _add_grad_into(self, index, grad_outputs, total):
        if total is None:
            self.added.append('new')
            return grad_outputs[0].array * 3
        total += grad_outputs[0].array * 3
        self.added.append(index)
        return True


def _scaled_copies(x, n, added):
    return chainer.functions.sum(
        sum(_ScaledCopy(added).apply((x,))[0] * (k + 1) for k in range(n)))


def test_gradients_added_into_the_tables_own_sum():
    # The first gradient is a new array the table owns; the later ones are
    # added into it by the nodes themselves.
    added = []
    x = _var([1, 2])
    _scaled_copies(x, 5, added).backward()
    assert added == ['new', 0, 0, 0, 0]
    numpy.testing.assert_array_equal(x.grad, [45, 45])


def test_existing_gradient_is_not_added_into():
    added = []
    x = _var([1, 2])
    kept = numpy.array([1, 1], numpy.float32)
    x.grad = kept
    _scaled_copies(x, 3, added).backward()
    numpy.testing.assert_array_equal(kept, [1, 1])
    numpy.testing.assert_array_equal(x.grad, [19, 19])
    assert added == [0, 0]


@pytest.mark.parametrize('config', ['debug', 'enable_backprop'])
def test_no_adding_into_sums_in_debug_mode_or_double_backprop(config):
    added = []
    x = _var([1, 2])
    loss = _scaled_copies(x, 5, added)
    if config == 'debug':
        with chainer.using_config('debug', True):
            loss.backward()
    else:
        loss.backward(enable_double_backprop=True)
    assert added == []
    numpy.testing.assert_array_equal(x.grad, [45, 45])


class _LaterAddend(chainer.function_node.Addend):

    def __init__(self, value, log):
        self.values = [value]
        self.log = log

    def absorb(self, other):
        if len(self.values) == 2:
            return False
        self.values += other.values
        return True

    def add_to(self, total):
        self.log.append(len(self.values))
        total += sum(self.values)


class _DeferredCopy(_ScaledCopy):
    # As _ScaledCopy, but hands its gradients to the table to add later.

    def _add_grad_into(self, index, grad_outputs, total):
        if total is None:
            return False
        return _LaterAddend(grad_outputs[0].array * 3, self.added)


def test_addends_are_combined_and_added_when_the_sum_is_read():
    # Six uses: a sum of two, then four addends kept by twos.
    log = []
    x = _var([1, 2])
    loss = chainer.functions.sum(
        sum(_DeferredCopy(log).apply((x,))[0] * (k + 1) for k in range(6)))
    loss.backward()
    assert log == [2, 2]
    numpy.testing.assert_array_equal(x.grad, [63, 63])


def test_additions_in_place_come_between_kept_addends():
    log = []
    x = _var([1, 2])
    nodes = [_DeferredCopy(log) if k % 2 else _ScaledCopy([])
             for k in range(8)]
    loss = chainer.functions.sum(
        sum(node.apply((x,))[0] * (k + 1) for k, node in enumerate(nodes)))
    loss.backward()
    numpy.testing.assert_array_equal(x.grad, [108, 108])


def test_kept_addend_is_added_before_the_node_runs_backward():
    # h's gradient sum must be complete when h's creator reads it.
    log = []
    x = _var([1, 2])
    h = x * 1
    loss = chainer.functions.sum(
        sum(_DeferredCopy(log).apply((h,))[0] for _ in range(3)))
    loss.backward()
    assert log == [1]
    numpy.testing.assert_array_equal(x.grad, [9, 9])


class TestGradientsSetOnOtherOutputs:
    # A .grad set on an output the traversal gives no gradient flows on (and
    # leaves that output), as in Chainer 7.8.1; one the traversal does give
    # a gradient is replaced by it.

    def test_gradient_of_a_sibling_output_flows_on(self):
        s = _var([1, 2, 3, 4])
        a, b = chainer.functions.split_axis(s, 2, 0)
        a.grad = numpy.array([10, 20], numpy.float32)
        b.grad = numpy.ones(2, numpy.float32)
        b.backward()
        numpy.testing.assert_array_equal(s.grad, [10, 20, 1, 1])
        assert a.grad is None

    def test_retained_gradients(self):
        s = _var([1, 2, 3, 4])
        a, b = chainer.functions.split_axis(s * 2, 2, 0)
        c = a * 3
        a.grad = numpy.array([10, 20], numpy.float32)
        b.grad = numpy.array([5, 5], numpy.float32)
        c.grad = numpy.ones(2, numpy.float32)
        c.backward(retain_grad=True)
        numpy.testing.assert_array_equal(s.grad, [6, 6, 10, 10])
        numpy.testing.assert_array_equal(a.grad, [3, 3])
        numpy.testing.assert_array_equal(b.grad, [5, 5])

    def test_gradient_of_a_reached_output_is_replaced(self):
        x = _var([1, 2])
        h = x * 2
        y = h * 3
        h.grad = numpy.array([100, 100], numpy.float32)
        y.grad = numpy.ones(2, numpy.float32)
        y.backward()
        numpy.testing.assert_array_equal(x.grad, [6, 6])
        numpy.testing.assert_array_equal(h.grad, [100, 100])

    def test_chainer_grad_does_not_read_them(self):
        s = _var([1, 2, 3, 4])
        a, b = chainer.functions.split_axis(s, 2, 0)
        a.grad = numpy.array([10, 20], numpy.float32)
        gs, = chainer.grad([b], [s], grad_outputs=[numpy.ones(2, 'f')])
        numpy.testing.assert_array_equal(gs.array, [0, 0, 1, 1])
        numpy.testing.assert_array_equal(a.grad, [10, 20])


@pytest.mark.parametrize('double', [False, True])
def test_gradients_made_by_backprop_require_grad(double):
    # As in Chainer 7.8.1: every gradient variable the traversal makes (the
    # default initial one, one computed, a sum of several) requires grad.
    x = _var([1, 2, 3])
    y = chainer.functions.sum(x * 2 + x * 3)
    y.backward(retain_grad=True, enable_double_backprop=double)
    assert y.grad_var.requires_grad
    assert x.grad_var.requires_grad
    numpy.testing.assert_array_equal(x.grad, [5, 5, 5])
    gx, = chainer.grad([chainer.functions.sum(x * x)], [x],
                       enable_double_backprop=double)
    assert gx.requires_grad
    z = x * 4
    chainer.backward([z], [numpy.ones(3, numpy.float32)])
    assert x.grad_var.requires_grad
