import numpy

import chainer
from chainer import configuration
import chainer.functions as F
from chainer import testing
from chainer.training import extensions


def _run(keep_graph, with_extension=True):
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    reported = []
    had_creator = []

    def report(trainer):
        chainer.report({'y': F.sum(x * 2), 'n': 1})
        y = trainer.observation['y']
        reported.append(y)
        had_creator.append(y.creator is not None)

    trainer = testing.get_trainer_with_mock_updater((2, 'iteration'))
    trainer.extend(report, name='report', priority=1000)
    if with_extension:
        ext = extensions.unchain_variables()
        assert ext.priority == 0
        trainer.extend(ext)
    with configuration.using_config('keep_graph_on_report', keep_graph):
        trainer.run()
    return had_creator, [y.creator is not None for y in reported]


def test_unchains_when_graph_is_kept():
    assert _run(True) == ([True, True], [False, False])
    assert _run(True, with_extension=False) == ([True, True], [True, True])


def test_reported_copies_have_no_graph_otherwise():
    assert _run(False) == ([False, False], [False, False])


def test_trigger_follows_previous_flag():
    ext = extensions.unchain_variables()
    with configuration.using_config('keep_graph_on_report', False):
        ext.initialize(None)
        assert not ext.trigger(None)
    with configuration.using_config('keep_graph_on_report', True):
        assert not ext.trigger(None)
        assert ext.trigger(None)
