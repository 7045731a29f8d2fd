import json
import os
import warnings

import pytest

import chainer
from chainer import serializers
from chainer import testing
from chainer.training.extensions import _matplotlib
from chainer.training import extensions


PNG_MAGIC = b'\x89PNG\r\n\x1a\n'


def _trainer(tmp_path, stop=6):
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=(stop, 'iteration'), iter_per_epoch=2)
    trainer.out = str(tmp_path)

    def report(trainer):
        it = trainer.updater.iteration
        chainer.report({'main/loss': 1.0 / it, 'main/accuracy': it / 10})

    trainer.extend(report, name='report', priority=1000)
    return trainer


def test_writes_png(tmp_path):
    pytest.importorskip('matplotlib')
    calls = []
    trainer = _trainer(tmp_path, stop=4)
    ext = extensions.PlotReport(
        ['main/loss', 'main/accuracy'], 'epoch', filename='loss.png',
        postprocess=lambda *args: calls.append(args))
    trainer.extend(ext)
    trainer.run()

    with open(str(tmp_path / 'loss.png'), 'rb') as f:
        assert f.read(8) == PNG_MAGIC
    assert os.listdir(str(tmp_path)) == ['loss.png']
    # One point per epoch: the mean over its two iterations.
    assert ext._data == {
        'main/loss': [(1, 0.75), (2, pytest.approx(7 / 24))],
        'main/accuracy': [(1, pytest.approx(0.15)), (2, 0.35)]}
    assert len(calls) == 2
    figure, axes, summary = calls[0]
    assert axes.get_xlabel() == 'epoch'
    assert [line.get_label() for line in axes.get_lines()] == [
        'main/loss', 'main/accuracy']
    assert isinstance(summary, chainer.DictSummary)


def test_single_key_and_serialize(tmp_path):
    pytest.importorskip('matplotlib')
    trainer = _trainer(tmp_path, stop=4)
    ext = extensions.PlotReport('main/loss', trigger=(2, 'iteration'),
                                marker=None, grid=False)
    trainer.extend(ext)
    trainer.run()
    assert os.listdir(str(tmp_path)) == ['plot.png']

    state = serializers.npz.serialize(ext)
    assert list(state) == ['_plot_plot.png']
    assert json.loads(str(state['_plot_plot.png'])) == {
        'main/loss': [[2, 0.75], [4, pytest.approx(7 / 24)]]}
    restored = extensions.PlotReport('main/loss')
    restored.serialize(serializers.NpzDeserializer(state))
    assert restored._data == json.loads(str(state['_plot_plot.png']))


def test_no_file_without_data(tmp_path):
    pytest.importorskip('matplotlib')
    trainer = _trainer(tmp_path, stop=2)
    trainer.extend(extensions.PlotReport(['missing']))
    trainer.run()
    assert os.listdir(str(tmp_path)) == []


def test_without_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setattr(_matplotlib, '_available', False)
    with pytest.warns(UserWarning, match='matplotlib is not installed'):
        ext = extensions.PlotReport(['main/loss'], file_name='x.png')
    assert not extensions.PlotReport.available()
    trainer = _trainer(tmp_path, stop=2)
    trainer.extend(ext)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        trainer.run()
    assert os.listdir(str(tmp_path)) == []
