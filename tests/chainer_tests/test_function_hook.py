"""What function hooks see during backward, against Chainer 7.8.1.

The scenarios of ``fixtures/make_hook_calls.py`` run here under a
recording hook, on the Python and the compiled autograd core, and must give
the hook calls Chainer 7.8.1 gave (``fixtures/hook_calls.json``): every
gradient sum an ``Add``, every ``LinearGradWeight``, ``EmbedIDGrad`` and
``GetItemGrad`` applied. Without hooks the same scenarios take the in-place
gradient sums (``FunctionNode._add_grad_into``) and give the same
gradients.
"""

import contextlib
import importlib.util
import io
import json
import os

import numpy
import pytest

import chainer
from chainer.functions.array import get_item
from chainer.functions.connection import embed_id
from chainer.functions.connection import linear
from chainer.functions.math import basic_math


_FIXTURES = os.path.join(os.path.dirname(__file__), 'fixtures')


def _load_scenarios():
    spec = importlib.util.spec_from_file_location(
        'make_hook_calls', os.path.join(_FIXTURES, 'make_hook_calls.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


scenarios = _load_scenarios()

with open(os.path.join(_FIXTURES, 'hook_calls.json')) as _f:
    EXPECTED = json.load(_f)

# The nodes the in-place sums stand for, and the class of each sum.
_GRAD_NODES = (basic_math.Add, basic_math.MultiAdd, get_item.GetItemGrad,
               linear.LinearGradWeight, embed_id.EmbedIDGrad)
# The nodes that add their gradients in place.
_IN_PLACE_NODES = (linear.LinearFunction, embed_id.EmbedIDFunction,
                   get_item.GetItem)


@pytest.fixture
def counts(monkeypatch):
    """Counts the forward calls of the gradient nodes and the gradients
    added by the in-place gradient protocol, by class name."""
    counted = {}

    def count(cls, name):
        original = cls.__dict__[name]

        def counting(self, *args):
            result = original(self, *args)
            if result is not False and result is not None:
                key = type(self).__name__
                counted[key] = counted.get(key, 0) + 1
            return result
        monkeypatch.setattr(cls, name, counting)

    for cls in _GRAD_NODES:
        count(cls, 'forward')
    for cls in _IN_PLACE_NODES:
        count(cls, '_add_grad_into')
    return counted


def _assert_grads(expected, actual):
    assert len(expected) == len(actual)
    for e, a in zip(expected, actual):
        numpy.testing.assert_allclose(
            numpy.asarray(a), numpy.asarray(e, numpy.float32),
            rtol=1e-5, atol=1e-6)


def _forward_counts(calls, names):
    # How many times the hook saw the forward of each class of ``names``.
    counted = {}
    for call in calls:
        if call[0] == 'forward_preprocess' and call[1] in names:
            counted[call[1]] = counted.get(call[1], 0) + 1
    return counted


@pytest.mark.parametrize('name', list(scenarios.SCENARIOS))
def test_hook_calls_as_in_chainer(core, name):
    calls, grads = scenarios.record(name)
    expected = EXPECTED['scenarios'][name]
    assert json.loads(json.dumps(calls)) == expected['calls']
    _assert_grads(expected['grads'], grads)


def test_measured_graph_has_every_gradient_node(core):
    # Linear used twice, EmbedID, GetItem and a sum: 58 calls in Chainer.
    calls, _ = scenarios.record('linear_twice')
    assert len(calls) == 58
    names = [call[1] for call in calls if call[0] == 'forward_preprocess']
    assert names.count('LinearGradWeight') == 2
    assert names.count('GetItemGrad') == 1
    assert names.count('EmbedIDGrad') == 1
    # The sum of the forward pass, and five gradient sums.
    assert names.count('Add') == 6


def test_timer_hook_rows_as_in_chainer(core):
    assert json.loads(json.dumps(scenarios.timer_rows())) == EXPECTED['timer']


def test_print_hook_text_as_in_chainer(core):
    assert scenarios.printed_text() == EXPECTED['print']


def test_timer_hook_report_lists_the_gradient_nodes(core):
    hook = chainer.function_hooks.TimerHook()
    scenarios.linear_twice(hook)
    out = io.StringIO()
    hook.print_report(file=out)
    rows = {line.split()[0]: int(line.split()[-1])
            for line in out.getvalue().splitlines()[1:]}
    assert rows == dict(EXPECTED['timer'])


@pytest.mark.parametrize('name', ['recurrent', 'used_three_times',
                                  'accumulated_twice', 'grad',
                                  'backward_of_two_outputs'])
def test_without_hooks_the_sums_are_made_in_place(core, counts, name):
    # The same gradients, with fewer nodes: the in-place protocol stands
    # for the gradient nodes and the sums.
    grads = scenarios.SCENARIOS[name](contextlib.nullcontext())
    _assert_grads(EXPECTED['scenarios'][name]['grads'], grads)
    unobserved = dict(counts)
    counts.clear()
    _, observed_grads = scenarios.record(name)
    _assert_grads(grads, observed_grads)

    names = {cls.__name__ for cls in _GRAD_NODES}
    observed = {key: n for key, n in counts.items() if key in names}
    assert observed == _forward_counts(
        EXPECTED['scenarios'][name]['calls'], names)
    # Observed, no node adds its gradients in place.
    assert not any(counts.get(cls.__name__) for cls in _IN_PLACE_NODES)
    # Unobserved, fewer gradient nodes run (and no Add sums gradients),
    # and Linear, EmbedID and GetItem add theirs in place.
    assert sum(unobserved.get(key, 0) for key in names) < \
        sum(observed.values())
    if name in ('recurrent', 'accumulated_twice', 'grad'):
        assert any(unobserved.get(cls.__name__) for cls in _IN_PLACE_NODES)


def test_debug_mode_runs_every_backward(core, counts):
    with chainer.using_config('debug', True):
        grads = scenarios.recurrent(contextlib.nullcontext())
    expected = EXPECTED['scenarios']['recurrent']
    _assert_grads(expected['grads'], grads)
    assert not any(counts.get(cls.__name__) for cls in _IN_PLACE_NODES)
    names = {cls.__name__ for cls in _GRAD_NODES}
    assert {key: n for key, n in counts.items() if key in names} == \
        _forward_counts(expected['calls'], names)


def test_debug_mode_checks_the_gradients_already_collected(core):
    # A parameter's initial gradient is NaN: adding to it is reported as
    # in Chainer.
    link = chainer.links.Linear(3, 2)
    x = chainer.Variable(numpy.ones((1, 3), numpy.float32))
    with chainer.using_config('debug', True):
        y = chainer.functions.sum(link(x))
        with pytest.raises(RuntimeError,
                           match='NaN is detected on backward computation '
                                 'of LinearFunction'):
            y.backward()


def test_node_hook_runs_that_nodes_backward(core, counts):
    # A hook on one node: that node runs its backward, the others still
    # add in place.
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(3, 2))
    rows = [x[i] for i in range(3)]
    rows[1].creator_node.add_hook(chainer.FunctionHook(), 'watch')
    chainer.functions.sum(rows[0] * 1 + rows[1] * 2 + rows[2] * 3).backward()
    numpy.testing.assert_array_equal(x.grad, [[1, 1], [2, 2], [3, 3]])
    assert counts.get('GetItemGrad') == 1
    assert counts.get('GetItem') == 2


class _ScaledLinear(linear.LinearFunction):
    # Overrides backward alone: the in-place protocol of LinearFunction
    # would bypass it.

    def backward(self, indexes, grad_outputs):
        return [None if g is None else g * 2
                for g in super().backward(indexes, grad_outputs)]


class _AddingMixin:

    def backward(self, indexes, grad_outputs):
        return linear.LinearFunction.backward(self, indexes, grad_outputs)


class _MixedLinear(_AddingMixin, linear.LinearFunction):
    pass


class _OwnProtocol(_ScaledLinear):
    # Overrides both: its own protocol stays.

    def _add_grad_into(self, index, grad_outputs, total):
        return False


class _ProtocolOnly(linear.LinearFunction):
    # Refines the protocol of the backward it inherits.

    def _add_grad_into(self, index, grad_outputs, total):
        return super()._add_grad_into(index, grad_outputs, total)


def test_protocol_dropped_where_backward_is_overridden():
    assert _ScaledLinear._add_grad_into is None
    assert _MixedLinear._add_grad_into is None
    assert _OwnProtocol._add_grad_into is _OwnProtocol.__dict__[
        '_add_grad_into']
    assert _ProtocolOnly._add_grad_into is _ProtocolOnly.__dict__[
        '_add_grad_into']
    assert linear.LinearFunction._add_grad_into is not None
    assert embed_id.EmbedIDFunction._add_grad_into is not None
    assert get_item.GetItem._add_grad_into is not None


def test_overridden_backward_runs_on_both_cores(core):
    # Each use of the weight runs the subclass's backward, which doubles
    # the gradient.
    rng = numpy.random.RandomState(0)
    W = chainer.Variable(rng.uniform(-1, 1, (3, 3)).astype(numpy.float32))
    x = rng.uniform(-1, 1, (2, 3)).astype(numpy.float32)

    def run(cls):
        W.cleargrad()
        h = x
        for _ in range(3):
            h, = cls().apply((h, W))
        chainer.functions.sum(h).backward()
        return W.grad.copy()

    plain = run(linear.LinearFunction)
    scaled = run(_ScaledLinear)
    assert not numpy.allclose(plain, scaled)
    # The reference: chain rule with each step's gradient doubled.
    gy = numpy.ones((2, 3), numpy.float32)
    Wa = W.array
    expected = numpy.zeros_like(Wa)
    inputs = [x]
    for _ in range(3):
        inputs.append(inputs[-1].dot(Wa.T))
    for step in reversed(range(3)):
        expected += 2 * gy.T.dot(inputs[step])
        gy = 2 * gy.dot(Wa)
    numpy.testing.assert_allclose(scaled, expected, rtol=1e-5, atol=1e-6)
