import json
import os

import numpy
import pytest

import chainer
from chainer import serializers
from chainer import testing
from chainer.training import extensions


def _report(trainer):
    it = trainer.updater.iteration
    chainer.report({'main/loss': 1.0 / it, 'main/accuracy': it * 0.1,
                    'x': it})
    if it % 3 == 0:
        chainer.report({'validation/main/accuracy': 0.5 + it / 100})


def _trainer(tmp_path, stop=7, **log_kwargs):
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=(stop, 'iteration'), iter_per_epoch=3)
    trainer.out = str(tmp_path)
    trainer.extend(_report, name='rep', priority=300)
    log_report = extensions.LogReport(**log_kwargs)
    trainer.extend(log_report)
    return trainer, log_report


# Recorded with the original Chainer 7.8.1 on the same run.
EXPECTED_LOG = [
    {'main/loss': 0.75, 'main/accuracy': 0.15000000000000002, 'x': 1.5,
     'epoch': 0, 'iteration': 2, 'pp': 1},
    {'main/loss': 0.29166666666666663, 'main/accuracy': 0.35000000000000003,
     'x': 3.5, 'validation/main/accuracy': 0.53, 'epoch': 1,
     'iteration': 4, 'pp': 1},
    {'main/loss': 0.18333333333333335, 'main/accuracy': 0.55, 'x': 5.5,
     'validation/main/accuracy': 0.56, 'epoch': 2, 'iteration': 6, 'pp': 1},
]


def _without_time(log):
    return [{k: v for k, v in e.items() if k != 'elapsed_time'} for e in log]


def test_log_and_file(tmp_path):
    trainer, log_report = _trainer(
        tmp_path, trigger=(2, 'iteration'),
        postprocess=lambda entry: entry.update({'pp': 1}))
    trainer.run()
    log = log_report.log
    assert _without_time(log) == EXPECTED_LOG
    assert [list(e) for e in _without_time(log)] == \
        [list(e) for e in EXPECTED_LOG]
    assert all(0 < e['elapsed_time'] < trainer.elapsed_time for e in log)

    path = os.path.join(str(tmp_path), 'log')
    with open(path) as f:
        text = f.read()
    assert text.startswith(
        '[\n    {\n        "main/loss": 0.75,\n'
        '        "main/accuracy": 0.15000000000000002,\n'
        '        "x": 1.5,\n        "epoch": 0,\n ')
    assert json.loads(text) == log
    assert sorted(os.listdir(str(tmp_path))) == ['log']


def test_keys_filename_template_and_no_file(tmp_path):
    trainer, log_report = _trainer(
        tmp_path, keys=['main/loss', 'missing'], trigger=(3, 'iteration'),
        filename='log_{iteration}')
    trainer.run()
    assert [sorted(e) for e in log_report.log] == \
        [['elapsed_time', 'epoch', 'iteration', 'main/loss']] * 2
    assert sorted(os.listdir(str(tmp_path))) == ['log_3', 'log_6']
    with open(os.path.join(str(tmp_path), 'log_3')) as f:
        assert len(json.load(f)) == 1

    other = tmp_path / 'none'
    trainer, log_report = _trainer(other, log_name=None)
    trainer.run()
    assert len(log_report.log) == 2
    assert not other.exists() or os.listdir(str(other)) == []


def test_log_name_alias(tmp_path):
    trainer, _ = _trainer(tmp_path, log_name='old_name')
    trainer.run()
    assert os.listdir(str(tmp_path)) == ['old_name']
    with pytest.raises(TypeError):
        extensions.LogReport(unknown=1)


def test_called_before_training(tmp_path):
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=(3, 'iteration'), iter_per_epoch=3)
    trainer.out = str(tmp_path)
    log_report = extensions.LogReport()
    trainer.extend(log_report, call_before_training=True)
    trainer.run()
    assert [(e['epoch'], e['iteration']) for e in log_report.log] == \
        [(0, 0), (1, 3)]


def test_serialize_round_trip(tmp_path):
    trainer, log_report = _trainer(tmp_path, stop=5,
                                   trigger=(2, 'iteration'))
    trainer.run()
    state = serializers.npz.serialize(log_report)
    assert sorted(state) == [
        '_log', '_summary/_names', '_summary/_summaries/0/_n',
        '_summary/_summaries/0/_x', '_summary/_summaries/0/_x2',
        '_summary/_summaries/1/_n', '_summary/_summaries/1/_x',
        '_summary/_summaries/1/_x2', '_summary/_summaries/2/_n',
        '_summary/_summaries/2/_x', '_summary/_summaries/2/_x2',
        '_trigger/previous_epoch_detail', '_trigger/previous_iteration']
    assert json.loads(str(state['_log'])) == log_report.log

    restored = extensions.LogReport(trigger=(2, 'iteration'))
    restored.serialize(serializers.NpzDeserializer(state))
    assert restored.log == log_report.log
    assert restored._summary.compute_mean() == pytest.approx(
        log_report._summary.compute_mean())
    numpy.testing.assert_equal(
        restored._trigger._previous_iteration, 5)
