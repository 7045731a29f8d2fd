import os

import numpy
import pytest

import chainer
from chainer import configuration
import chainer.functions as F
from chainer import iterators
import chainer.links as L
from chainer import optimizers
from chainer import serializers
from chainer import training
from chainer.training import extensions
from chainer.training.extensions import computational_graph


class Model(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(2, 1)

    def forward(self, x, t):
        loss = F.mean_squared_error(self.l1(x), t)
        chainer.report({'loss': loss, 'number': 1.0}, self)
        return loss


def _trainer(out, stop=3):
    data = [(numpy.ones(2, 'f'), numpy.ones(1, 'f'))] * 4
    updater = training.updaters.StandardUpdater(
        iterators.SerialIterator(data, 2),
        optimizers.SGD().setup(Model()))
    return training.Trainer(updater, (stop, 'iteration'), out=out)


def test_dump_graph(tmp_path):
    out = str(tmp_path)
    trainer = _trainer(out)
    ext = extensions.DumpGraph('main/loss')
    assert ext.default_name == 'dump_graph'
    assert extensions.dump_graph is extensions.DumpGraph
    trainer.extend(ext)
    calls = []
    trainer.extend(
        lambda t: calls.append(t.observation['main/loss'].creator is None),
        name='check', priority=-1)
    assert not configuration.config.keep_graph_on_report
    trainer.run()

    # The graph is kept for the first iteration only.
    assert calls == [False, True, True]
    assert not configuration.config.keep_graph_on_report
    with open(os.path.join(out, 'cg.dot')) as f:
        dot = f.read()
    assert dot.startswith('digraph graphname{')
    assert 'LinearFunction' in dot and 'MeanSquaredError' in dot
    assert 'octagon' in dot and '#6495ED' in dot
    expected = ['cg.dot']
    if computational_graph.is_graphviz_available():
        expected.append('cg.png')
        with open(os.path.join(out, 'cg.png'), 'rb') as f:
            assert f.read(8) == b'\x89PNG\r\n\x1a\n'
    assert sorted(os.listdir(out)) == expected

    state = serializers.npz.serialize(ext)
    assert {k: bool(v) for k, v in state.items()} == {
        '_original_flag': False, '_flag_called': True}


def test_dump_graph_filename_and_styles(tmp_path):
    out = str(tmp_path)
    trainer = _trainer(out, stop=1)
    trainer.extend(extensions.DumpGraph(
        'main/loss', out_name='graph.dot',
        variable_style={'shape': 'box'}, function_style={'shape': 'oval'}))
    trainer.run()
    with open(os.path.join(out, 'graph.dot')) as f:
        dot = f.read()
    assert 'shape="box"' in dot and 'shape="oval"' in dot
    assert 'octagon' not in dot


def test_root_must_be_variable(tmp_path):
    trainer = _trainer(str(tmp_path), stop=1)
    trainer.extend(extensions.DumpGraph('main/number'))
    with pytest.raises(TypeError, match='root value is not a Variable'):
        trainer.run(show_loop_exception_msg=False)
    assert not configuration.config.keep_graph_on_report


def test_is_return_code_zero():
    assert computational_graph.is_return_code_zero(['true'])
    assert not computational_graph.is_return_code_zero(['false'])
    assert not computational_graph.is_return_code_zero(
        ['no-such-command-here'])
