import io
import re

import numpy
import pytest

import chainer
from chainer import function_hooks


class Double(chainer.FunctionNode):
    """Retains nothing, so its backward sees no input data."""

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, target_input_indexes, grad_outputs):
        return chainer.Variable(grad_outputs[0].array * 2),


class Square(chainer.FunctionNode):
    """Retains its input."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[0] ** 2,

    def backward(self, target_input_indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return chainer.Variable(2 * x.array * grad_outputs[0].array),


class Halves(chainer.FunctionNode):

    def forward(self, inputs):
        x, = inputs
        return x[:1].copy(), x[1:].copy()

    def backward(self, target_input_indexes, grad_outputs):
        gy0, gy1 = grad_outputs
        assert gy1 is None
        return chainer.Variable(
            numpy.concatenate([gy0.array, numpy.zeros_like(gy0.array)])),


def _x():
    return chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))


def _normalize(text):
    return re.sub(r'0x[0-9a-f]+', '0xADDR', text)


# Blocks in the format printed by the original Chainer.
_INPUT = (
    '<variable at 0xADDR>\n'
    '- device: CPU\n'
    "- backend: <class 'numpy.ndarray'>\n"
    '- shape: (2, 3)\n'
    '- dtype: float32\n'
    '- statistics: mean=2.50000000, std=1.70782518\n'
    '- grad: None\n')
_GRAD = (
    '<variable at 0xADDR>\n'
    '- device: CPU\n'
    "- backend: <class 'numpy.ndarray'>\n"
    '- shape: (2, 3)\n'
    '- dtype: float32\n'
    '- statistics: mean=0.00000000, std=0.00000000\n'
    '- grad: mean=1.00000000, std=0.00000000\n')


def test_name_and_defaults():
    hook = function_hooks.PrintHook()
    assert hook.name == 'PrintHook'
    assert hook.sep is None
    assert hook.end == '\n'
    assert hook.flush is True


def test_forward():
    out = io.StringIO()
    with function_hooks.PrintHook(file=out):
        Double().apply((_x(),))
    assert _normalize(out.getvalue()) == (
        'function\tDouble\n'
        'input data\n' + _INPUT)


def test_backward_of_node_without_retained_inputs():
    y, = Double().apply((_x(),))
    y.grad = numpy.ones((2, 3), numpy.float32)
    out = io.StringIO()
    with function_hooks.PrintHook(file=out):
        y.backward()
    assert _normalize(out.getvalue()) == (
        'function\tDouble\n'
        'input data\n'
        '(removed)\n'
        'output gradient\n' + _GRAD)


def test_backward_of_node_with_retained_inputs():
    y, = Square().apply((_x(),))
    y.grad = numpy.ones((2, 3), numpy.float32)
    out = io.StringIO()
    with function_hooks.PrintHook(file=out):
        y.backward()
    assert _normalize(out.getvalue()) == (
        'function\tSquare\n'
        'input data\n' + _INPUT + 'output gradient\n' + _GRAD)


def test_missing_output_gradient_prints_an_empty_variable():
    x = chainer.Variable(numpy.ones((2,), numpy.float32))
    first, _ = Halves().apply((x,))
    first.grad = numpy.ones((1,), numpy.float32)
    out = io.StringIO()
    with function_hooks.PrintHook(file=out):
        first.backward()
    text = _normalize(out.getvalue())
    assert text.startswith('function\tHalves\ninput data\n(removed)\n'
                           'output gradient\n')
    assert text.endswith(
        '<variable at 0xADDR>\n'
        '- device: None\n'
        '- backend: None\n'
        '- shape: None\n'
        '- dtype: None\n'
        '- statistics: None\n'
        '- grad: None\n')


def test_end():
    out = io.StringIO()
    with function_hooks.PrintHook(end='$\n', file=out):
        Double().apply((_x(),))
    assert _normalize(out.getvalue()) == (
        'function\tDouble$\n'
        'input data$\n' + _INPUT[:-1] + '$\n')


def test_several_inputs_and_removed_input_marker():
    class Add(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] + inputs[1],

    out = io.StringIO()
    with function_hooks.PrintHook(file=out):
        Add().apply((_x(), _x()))
    assert _normalize(out.getvalue()) == (
        'function\tAdd\ninput data\n' + _INPUT + _INPUT)


def test_label_is_printed():
    class Named(chainer.FunctionNode):
        @property
        def label(self):
            return 'my label'

        def forward(self, inputs):
            return inputs[0].copy(),

    out = io.StringIO()
    with function_hooks.PrintHook(file=out):
        Named().apply((_x(),))
    assert out.getvalue().startswith('function\tmy label\n')


@pytest.mark.parametrize('flush', [True, False])
def test_flush(flush):
    class Stream(io.StringIO):
        flushed = 0

        def flush(self):
            self.flushed += 1

    stream = Stream()
    with function_hooks.PrintHook(file=stream, flush=flush):
        Double().apply((_x(),))
        Double().apply((_x(),))
    assert stream.flushed == (2 if flush else 0)


def test_sep_is_deprecated():
    out = io.StringIO()
    with pytest.warns(DeprecationWarning, match='sep argument'):
        hook = function_hooks.PrintHook(sep='|', file=out)
    assert hook.sep == '|'
    with hook:
        Double().apply((_x(),))
    assert '|' not in out.getvalue()


def test_local_hook_prints_only_its_node():
    out = io.StringIO()
    hook = function_hooks.PrintHook(file=out)
    node = Double()
    node.add_hook(hook)
    y, = node.apply((_x(),))
    Square().apply((y,))
    text = out.getvalue()
    assert text.count('function\t') == 1
    assert 'function\tDouble\n' in text
