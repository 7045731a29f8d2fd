"""End-to-end training runs compared with the original Chainer 7.8.1."""

import json
import os

import numpy
import pytest

import chainer
from chainer import datasets
import chainer.functions as F
from chainer import iterators
import chainer.links as L
from chainer import optimizers
from chainer import serializers
from chainer import training
from chainer.training import extensions


class Regressor(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(
                3, 1, initialW=numpy.array([[0.1, 0.2, -0.1]], 'f'),
                initial_bias=0.)

    def forward(self, x, t):
        y = self.l1(x)
        loss = F.mean_squared_error(y, t)
        chainer.report({'loss': loss, 'abs': F.mean_absolute_error(y, t)},
                       self)
        return loss


def _data():
    rng = numpy.random.RandomState(0)
    w = numpy.array([[1.], [-2.], [0.5]], 'f')
    x = rng.randn(20, 3).astype('f')
    t = (x @ w + 0.3).astype('f')
    vx = rng.randn(7, 3).astype('f')
    vt = (vx @ w + 0.3).astype('f')
    return datasets.TupleDataset(x, t), datasets.TupleDataset(vx, vt)


def _build(out, stop=(3, 'epoch'), **snapshot_kwargs):
    train, valid = _data()
    model = Regressor()
    optimizer = optimizers.SGD(lr=0.05)
    optimizer.setup(model)
    iterator = iterators.SerialIterator(train, 4, shuffle=False)
    updater = training.updaters.StandardUpdater(iterator, optimizer)
    trainer = training.Trainer(updater, stop, out=out)
    trainer.extend(extensions.Evaluator(
        iterators.SerialIterator(valid, 3, repeat=False, shuffle=False),
        model))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.snapshot(**snapshot_kwargs),
                   trigger=(1, 'epoch'))
    return trainer, model


# The original's results on the same run (float32 values averaged by the
# original's reporter in float64; ours averages in float32, hence rtol).
ORIGINAL_LOG = [
    {'main/loss': 4.30588265657425, 'main/abs': 1.6674586534500122,
     'validation/main/loss': 1.2684787263472874,
     'validation/main/abs': 0.877358059088389, 'epoch': 1, 'iteration': 5},
    {'main/loss': 1.4821178674697877, 'main/abs': 0.9677510738372803,
     'validation/main/loss': 0.4422999322414398,
     'validation/main/abs': 0.5070975422859192, 'epoch': 2,
     'iteration': 10},
    {'main/loss': 0.5421604424715042, 'main/abs': 0.5815474152565002,
     'validation/main/loss': 0.16343102045357227,
     'validation/main/abs': 0.29516569276650745, 'epoch': 3,
     'iteration': 15},
]
ORIGINAL_W = [[0.9079679846763611, -1.5289891958236694, 0.21976953744888306]]
ORIGINAL_B = [0.08935306966304779]

ORIGINAL_SNAPSHOT_KEYS = [
    '_snapshot_elapsed_time',
    'extension_triggers/LogReport/previous_epoch_detail',
    'extension_triggers/LogReport/previous_iteration',
    'extension_triggers/_Snapshot/previous_epoch_detail',
    'extension_triggers/_Snapshot/previous_iteration',
    'extension_triggers/validation/previous_epoch_detail',
    'extension_triggers/validation/previous_iteration',
    'extensions/LogReport/_log',
    'extensions/LogReport/_summary/_names',
    'extensions/LogReport/_trigger/previous_epoch_detail',
    'extensions/LogReport/_trigger/previous_iteration',
    'stop_trigger/previous_epoch_detail',
    'stop_trigger/previous_iteration',
    'updater/iteration',
    'updater/iterator:main/current_position',
    'updater/iterator:main/epoch',
    'updater/iterator:main/is_new_epoch',
    'updater/iterator:main/previous_epoch_detail',
    'updater/model:main/l1/W',
    'updater/model:main/l1/b',
    'updater/optimizer:main/epoch',
    'updater/optimizer:main/l1/W/t',
    'updater/optimizer:main/l1/b/t',
    'updater/optimizer:main/t',
]

# Scalars of the original's snapshot_iter_15 of this run: (dtype, value).
ORIGINAL_SNAPSHOT_15_SCALARS = {
    'updater/iterator:main/current_position': ('int64', 0),
    'updater/iterator:main/epoch': ('int64', 3),
    'updater/iterator:main/is_new_epoch': ('bool', True),
    'updater/iterator:main/previous_epoch_detail': ('float64', 2.8),
    'updater/optimizer:main/t': ('int64', 15),
    'updater/optimizer:main/epoch': ('int64', 3),
    'updater/optimizer:main/l1/W/t': ('int64', 15),
    'updater/optimizer:main/l1/b/t': ('int64', 15),
    'updater/iteration': ('int64', 15),
    'stop_trigger/previous_iteration': ('int64', 14),
    'stop_trigger/previous_epoch_detail': ('float64', 2.8),
    'extension_triggers/validation/previous_iteration': ('int64', 15),
    'extension_triggers/validation/previous_epoch_detail': ('float64', 3.0),
    'extensions/LogReport/_trigger/previous_iteration': ('int64', 15),
    'extensions/LogReport/_trigger/previous_epoch_detail': ('float64', 3.0),
    'extension_triggers/LogReport/previous_iteration': ('int64', 15),
    'extension_triggers/LogReport/previous_epoch_detail': ('float64', 3.0),
    'extension_triggers/_Snapshot/previous_iteration': ('int64', 15),
    'extension_triggers/_Snapshot/previous_epoch_detail': ('float64', 3.0),
}

# The original's snapshot_iter_10 of this run, entry by entry.
ORIGINAL_LOG_JSON_10 = (
    '[{"main/loss": 4.30588265657425, "main/abs": 1.6674586534500122, '
    '"validation/main/loss": 1.2684787263472874, "validation/main/abs": '
    '0.877358059088389, "epoch": 1, "iteration": 5, "elapsed_time": '
    '0.051471154999489954}, {"main/loss": 1.4821178674697877, "main/abs": '
    '0.9677510738372803, "validation/main/loss": 0.4422999322414398, '
    '"validation/main/abs": 0.5070975422859192, "epoch": 2, "iteration": '
    '10, "elapsed_time": 0.1269296000000395}]')
ORIGINAL_SNAPSHOT_10 = {
    '_snapshot_elapsed_time': numpy.float64(0.13826567699925363),
    'extension_triggers/LogReport/previous_epoch_detail': numpy.float64(2.0),
    'extension_triggers/LogReport/previous_iteration': numpy.int64(10),
    'extension_triggers/_Snapshot/previous_epoch_detail': numpy.float64(2.0),
    'extension_triggers/_Snapshot/previous_iteration': numpy.int64(10),
    'extension_triggers/validation/previous_epoch_detail':
        numpy.float64(2.0),
    'extension_triggers/validation/previous_iteration': numpy.int64(10),
    'extensions/LogReport/_log': numpy.array(ORIGINAL_LOG_JSON_10),
    'extensions/LogReport/_summary/_names': numpy.array('[]'),
    'extensions/LogReport/_trigger/previous_epoch_detail': numpy.float64(2.0),
    'extensions/LogReport/_trigger/previous_iteration': numpy.int64(10),
    'stop_trigger/previous_epoch_detail': numpy.float64(1.8),
    'stop_trigger/previous_iteration': numpy.int64(9),
    'updater/iteration': numpy.int64(10),
    'updater/iterator:main/current_position': numpy.int64(0),
    'updater/iterator:main/epoch': numpy.int64(2),
    'updater/iterator:main/is_new_epoch': numpy.bool_(True),
    'updater/iterator:main/previous_epoch_detail': numpy.float64(1.8),
    'updater/model:main/l1/W': numpy.array(
        [[0.7921059131622314, -1.2231855392456055, 0.12633119523525238]],
        numpy.float32),
    'updater/model:main/l1/b': numpy.array([0.047000013291835785],
                                           numpy.float32),
    'updater/optimizer:main/epoch': numpy.int64(2),
    'updater/optimizer:main/l1/W/t': numpy.int64(10),
    'updater/optimizer:main/l1/b/t': numpy.int64(10),
    'updater/optimizer:main/t': numpy.int64(10),
}


def _without_time(log):
    return [{k: v for k, v in entry.items() if k != 'elapsed_time'}
            for entry in log]


def _assert_log_close(log, expected):
    log = _without_time(log)
    assert [list(entry) for entry in log] == [list(e) for e in expected]
    for entry, expected_entry in zip(log, expected):
        for key, value in expected_entry.items():
            if isinstance(value, int):
                assert entry[key] == value
            else:
                assert entry[key] == pytest.approx(value, rel=1e-6)


def test_training_matches_original(tmp_path):
    out = str(tmp_path)
    trainer, model = _build(out)
    trainer.run()

    log = trainer.get_extension('LogReport').log
    _assert_log_close(log, ORIGINAL_LOG)
    losses = [entry['main/loss'] for entry in log]
    assert losses[0] > losses[1] > losses[2]
    numpy.testing.assert_allclose(model.l1.W.array, ORIGINAL_W, rtol=1e-6)
    numpy.testing.assert_allclose(model.l1.b.array, ORIGINAL_B, rtol=1e-6)

    assert sorted(os.listdir(out)) == [
        'log', 'snapshot_iter_10', 'snapshot_iter_15', 'snapshot_iter_5']
    with open(os.path.join(out, 'log')) as f:
        assert json.load(f) == log

    with numpy.load(os.path.join(out, 'snapshot_iter_15')) as f:
        # Chainer's keys, and the random state (which Chainer ignores).
        assert sorted(f.files) == sorted(ORIGINAL_SNAPSHOT_KEYS + [
            'extensions/_Snapshot/random_state/numpy',
            'extensions/_Snapshot/random_state/python'])
        for key, (dtype, value) in ORIGINAL_SNAPSHOT_15_SCALARS.items():
            assert (str(f[key].dtype), f[key].tolist()) == (dtype, value)
        numpy.testing.assert_array_equal(f['updater/model:main/l1/W'],
                                         model.l1.W.array)
        assert json.loads(str(f['extensions/LogReport/_log'])) == log
        assert float(f['_snapshot_elapsed_time']) > 0


def test_resume_gives_same_trajectory(tmp_path):
    full, full_model = _build(str(tmp_path / 'full'))
    full.run()

    first, _ = _build(str(tmp_path / 'part'), stop=(2, 'epoch'))
    first.run()
    resumed, resumed_model = _build(str(tmp_path / 'part'))
    serializers.load_npz(str(tmp_path / 'part' / 'snapshot_iter_10'),
                         resumed)
    assert resumed.updater.iteration == 10
    resumed.run()

    numpy.testing.assert_array_equal(resumed_model.l1.W.array,
                                     full_model.l1.W.array)
    numpy.testing.assert_array_equal(resumed_model.l1.b.array,
                                     full_model.l1.b.array)
    assert _without_time(resumed.get_extension('LogReport').log) == \
        _without_time(full.get_extension('LogReport').log)


def test_autoload_resumes_from_latest_snapshot(tmp_path):
    out = str(tmp_path)
    first, _ = _build(out, stop=(2, 'epoch'))
    first.run()
    os.utime(os.path.join(out, 'snapshot_iter_5'), (1, 1))

    resumed, model = _build(out, autoload=True)
    resumed.run()
    assert resumed.updater.iteration == 15
    numpy.testing.assert_allclose(model.l1.W.array, ORIGINAL_W, rtol=1e-6)
    assert len(resumed.get_extension('LogReport').log) == 3


def test_resume_from_original_snapshot(tmp_path):
    path = str(tmp_path / 'snapshot_iter_10')
    with open(path, 'wb') as f:
        numpy.savez_compressed(f, **ORIGINAL_SNAPSHOT_10)

    trainer, model = _build(str(tmp_path / 'out'))
    serializers.load_npz(path, trainer)
    assert trainer.updater.iteration == 10
    assert trainer._snapshot_elapsed_time == 0.13826567699925363
    trainer.run()

    numpy.testing.assert_allclose(model.l1.W.array, ORIGINAL_W, rtol=1e-6)
    numpy.testing.assert_allclose(model.l1.b.array, ORIGINAL_B, rtol=1e-6)
    log = trainer.get_extension('LogReport').log
    # The first two entries come from the original's snapshot unchanged.
    assert log[:2] == json.loads(ORIGINAL_LOG_JSON_10)
    _assert_log_close(log, ORIGINAL_LOG)
    assert log[2]['elapsed_time'] > 0.13826567699925363
