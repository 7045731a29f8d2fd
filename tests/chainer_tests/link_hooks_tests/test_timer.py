import io
import re

import numpy

import chainer
from chainer.link_hooks import timer
from chainer.links.connection import linear


class _MLP(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = linear.Linear(3, 4)
            self.l2 = linear.Linear(4, 2)

    def forward(self, x):
        return self.l2(self.l1(x))


def test_records_nested_calls():
    model = _MLP()
    hook = timer.TimerHook()
    x = numpy.ones((2, 3), numpy.float32)
    with hook:
        model(x)
        model(x)
    names = [name for name, _ in hook.call_history]
    assert names == ['Linear', 'Linear', '_MLP'] * 2
    assert all(t >= 0 for _, t in hook.call_history)
    summary = hook.summary()
    assert list(summary) == ['Linear', '_MLP']
    assert summary['Linear']['occurrence'] == 4
    assert summary['_MLP']['occurrence'] == 2
    # Only the outermost calls count in the total.
    outer = [t for name, t in hook.call_history if name == '_MLP']
    assert hook.total_time() == sum(outer)
    assert summary['_MLP']['elapsed_time'] == sum(outer)


def test_local_hook():
    model = _MLP()
    hook = timer.TimerHook()
    model.l1.add_hook(hook)
    model(numpy.ones((2, 3), numpy.float32))
    assert [name for name, _ in hook.call_history] == ['Linear']


def test_print_report():
    hook = timer.TimerHook()
    hook.call_history = [('Linear', 0.002), ('Linear', 0.003),
                         ('Convolution2D', 0.5)]
    out = io.StringIO()
    hook.print_report(file=out)
    # The table of Chainer 7.8.1 for the same history.
    assert out.getvalue().splitlines() == [
        '     LinkName  ElapsedTime  Occurrence',
        '       Linear       5.00ms           2',
        'Convolution2D     500.00ms           1']
    out = io.StringIO()
    hook.print_report(unit='auto_foreach', file=out)
    lines = out.getvalue().splitlines()
    assert lines[1].split()[1] == '5.00ms'
    assert lines[2].split()[1] == '500.00ms'
    out = io.StringIO()
    hook.print_report(unit='us', file=out)
    assert re.search(r'5000\.00us', out.getvalue())
