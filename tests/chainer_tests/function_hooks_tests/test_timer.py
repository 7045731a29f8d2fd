import io

import numpy
import pytest

import chainer
from chainer import function_hooks


class Double(chainer.FunctionNode):

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, target_input_indexes, grad_outputs):
        return chainer.Variable(grad_outputs[0].array * 2),


class Outer(chainer.FunctionNode):
    """Calls ``Double`` on raw arrays in its forward and its backward."""

    def forward(self, inputs):
        y, = Double().apply(inputs)
        return y.array,

    def backward(self, target_input_indexes, grad_outputs):
        gx, = Double().apply((grad_outputs[0].array,))
        return gx,


class OldDouble(chainer.Function):

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, inputs, grad_outputs):
        return grad_outputs[0] * 2,


def _x():
    return chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))


def _report(history, unit='auto'):
    hook = function_hooks.TimerHook()
    hook.call_history = list(history)
    out = io.StringIO()
    hook.print_report(unit=unit, file=out)
    return out.getvalue()


def test_name_and_table():
    hook = function_hooks.TimerHook()
    assert hook.name == 'TimerHook'
    assert hook.table == {'sec': 1, 'ms': 1000, 'us': 10 ** 6, 'ns': 10 ** 9}
    assert hook.call_history == []
    assert hook.total_time() == 0
    assert hook.summary() == {}


def test_forward_and_backward_calls_are_timed():
    x = _x()
    hook = function_hooks.TimerHook()
    with hook:
        y, = Double().apply((x,))
        z, = Double().apply((y,))
        z.grad = numpy.ones((2, 3), numpy.float32)
        z.backward()
    assert [name for name, _ in hook.call_history] == ['Double'] * 4
    assert all(isinstance(t, float) and t >= 0
               for _, t in hook.call_history)
    assert hook.total_time() == pytest.approx(
        sum(t for _, t in hook.call_history))
    numpy.testing.assert_array_equal(x.grad, numpy.full((2, 3), 4))


def test_nested_calls_count_once_in_total_time():
    hook = function_hooks.TimerHook()
    with hook:
        Outer().apply((_x(),))
    # The inner call finishes first, then the outer one.
    assert [name for name, _ in hook.call_history] == ['Double', 'Outer']
    inner, outer = (t for _, t in hook.call_history)
    assert outer >= inner
    assert hook.total_time() == outer
    summary = hook.summary()
    assert summary['Outer'] == {'elapsed_time': outer, 'occurrence': 1}
    assert summary['Double'] == {'elapsed_time': inner, 'occurrence': 1}


def test_nested_calls_in_backward():
    x = _x()
    y, = Outer().apply((x,))
    y.grad = numpy.ones((2, 3), numpy.float32)
    hook = function_hooks.TimerHook()
    with hook:
        y.backward()
    assert [name for name, _ in hook.call_history] == ['Double', 'Outer']
    assert hook.total_time() == hook.call_history[-1][1]


def test_old_style_function_is_named_by_its_class():
    x = _x()
    hook = function_hooks.TimerHook()
    with hook:
        y = OldDouble()(x)
        y.grad = numpy.ones((2, 3), numpy.float32)
        y.backward()
    assert [name for name, _ in hook.call_history] == ['OldDouble'] * 2


def test_local_hook_times_only_its_node():
    hook = function_hooks.TimerHook()
    node = Double()
    node.add_hook(hook)
    y, = node.apply((_x(),))
    Double().apply((y,))
    assert [name for name, _ in hook.call_history] == ['Double']


def test_summary_keeps_first_call_order():
    hook = function_hooks.TimerHook()
    hook.call_history = [('B', 1.0), ('A', 2.0), ('B', 0.5)]
    summary = hook.summary()
    assert list(summary) == ['B', 'A']
    assert summary['B'] == {'elapsed_time': 1.5, 'occurrence': 2}
    assert summary['A'] == {'elapsed_time': 2.0, 'occurrence': 1}


_HISTORY = [('ReLU', 396.16e-6), ('MulConstant', 1.2e-3), ('ReLU', 2e-7),
            ('AVeryVeryLongFunctionNameX', 0.5), ('Sum', 12.5)]

# Tables printed by the original Chainer for _HISTORY.
_EXPECTED = {
    'auto': (
        '              FunctionName  ElapsedTime  Occurrence\n'
        '                      ReLU      0.00sec           2\n'
        '               MulConstant      0.00sec           1\n'
        'AVeryVeryLongFunctionNameX      0.50sec           1\n'
        '                       Sum     12.50sec           1\n'),
    'auto_foreach': (
        '              FunctionName  ElapsedTime  Occurrence\n'
        '                      ReLU     396.36us           2\n'
        '               MulConstant       1.20ms           1\n'
        'AVeryVeryLongFunctionNameX     500.00ms           1\n'
        '                       Sum     12.50sec           1\n'),
    'ms': (
        '              FunctionName  ElapsedTime  Occurrence\n'
        '                      ReLU       0.40ms           2\n'
        '               MulConstant       1.20ms           1\n'
        'AVeryVeryLongFunctionNameX     500.00ms           1\n'
        '                       Sum   12500.00ms           1\n'),
    'ns': (
        '              FunctionName       ElapsedTime  Occurrence\n'
        '                      ReLU       396360.00ns           2\n'
        '               MulConstant      1200000.00ns           1\n'
        'AVeryVeryLongFunctionNameX    500000000.00ns           1\n'
        '                       Sum  12500000000.00ns           1\n'),
}


@pytest.mark.parametrize('unit', sorted(_EXPECTED))
def test_print_report_format(unit):
    assert _report(_HISTORY, unit) == _EXPECTED[unit]


def test_print_report_auto_unit_follows_the_largest_time():
    assert _report([('ReLU', 396.16e-6), ('MulConstant', 1.2e-3)]) == (
        'FunctionName  ElapsedTime  Occurrence\n'
        '        ReLU       0.40ms           1\n'
        ' MulConstant       1.20ms           1\n')
    assert _report([('A', 2.5e-7)]) == (
        'FunctionName  ElapsedTime  Occurrence\n'
        '           A     250.00ns           1\n')
    assert _report([('A', 2.5)], unit='us') == (
        'FunctionName   ElapsedTime  Occurrence\n'
        '           A  2500000.00us           1\n')


def test_print_report_unknown_unit():
    with pytest.raises(KeyError):
        _report(_HISTORY, 'min')


def test_print_report_without_calls_prints_the_header():
    assert _report([]) == 'FunctionName  ElapsedTime  Occurrence\n'


def test_print_report_flushes():
    class Stream(io.StringIO):
        flushed = 0

        def flush(self):
            self.flushed += 1

    hook = function_hooks.TimerHook()
    hook.call_history = [('A', 1.0)]
    stream = Stream()
    hook.print_report(file=stream)
    assert stream.flushed == 1


@pytest.mark.gpu
def test_gpu_calls_are_timed_with_events():
    cupy = pytest.importorskip('cupy')
    x = chainer.Variable(cupy.arange(6, dtype=cupy.float32).reshape(2, 3))
    hook = function_hooks.TimerHook()
    with hook:
        y, = Double().apply((x,))
        y.grad = cupy.ones((2, 3), cupy.float32)
        y.backward()
    assert [name for name, _ in hook.call_history] == ['Double'] * 2
    assert all(t > 0 for _, t in hook.call_history)
    assert hook.total_time() == pytest.approx(
        sum(t for _, t in hook.call_history))
