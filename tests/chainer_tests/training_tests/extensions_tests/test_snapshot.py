import os

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import serializers
from chainer import testing
from chainer import training
from chainer.training import extensions
from chainer.training.extensions import snapshot_writers


def _trainer(tmp_path, stop=(6, 'iteration')):
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=stop, iter_per_epoch=2)
    trainer.out = str(tmp_path)
    return trainer


def _model(value):
    model = chainer.Chain()
    with model.init_scope():
        model.l1 = L.Linear(2, 2, initialW=value, initial_bias=value)
    return model


def test_defaults():
    ext = extensions.snapshot()
    assert ext.trigger == (1, 'epoch')
    assert ext.priority == -100
    assert ext.filename == 'snapshot_iter_{.updater.iteration}'
    assert isinstance(ext.writer, snapshot_writers.SimpleWriter)
    assert ext.n_retains == -1 and not ext.autoload


def test_snapshot_of_trainer_per_epoch(tmp_path):
    trainer = _trainer(tmp_path)
    trainer.extend(extensions.snapshot())
    trainer.run()
    assert sorted(os.listdir(str(tmp_path))) == [
        'snapshot_iter_2', 'snapshot_iter_4', 'snapshot_iter_6']
    with numpy.load(str(tmp_path / 'snapshot_iter_4')) as f:
        assert sorted(f.files) == [
            '_snapshot_elapsed_time',
            'extension_triggers/_Snapshot/previous_epoch_detail',
            'extension_triggers/_Snapshot/previous_iteration',
            'extensions/_Snapshot/random_state/numpy',
            'extensions/_Snapshot/random_state/python',
            'stop_trigger/previous_epoch_detail',
            'stop_trigger/previous_iteration']
        assert int(f['extension_triggers/_Snapshot/previous_iteration']) \
            == 4


def test_snapshot_object_and_filename_forms(tmp_path):
    model = _model(1.)
    trainer = _trainer(tmp_path, stop=(4, 'iteration'))
    trainer.extend(extensions.snapshot_object(
        model, 'model_{.updater.epoch}.npz'))
    trainer.extend(extensions.snapshot_object(
        model, lambda t: 'called_%d' % t.updater.iteration),
        trigger=(3, 'iteration'))
    trainer.run()
    assert sorted(os.listdir(str(tmp_path))) == [
        'called_3', 'model_1.npz', 'model_2.npz']

    loaded = _model(0.)
    serializers.load_npz(str(tmp_path / 'model_2.npz'), loaded)
    numpy.testing.assert_array_equal(loaded.l1.W.array, model.l1.W.array)
    with numpy.load(str(tmp_path / 'called_3')) as f:
        assert sorted(f.files) == ['l1/W', 'l1/b']


def test_condition_and_savefun(tmp_path):
    saved = []

    def savefun(path, target):
        saved.append((os.path.basename(path), sorted(target)))
        with open(path, 'w') as f:
            f.write('x')

    flags = iter([False, True, False])
    trainer = _trainer(tmp_path)
    trainer.extend(extensions.snapshot(
        savefun=savefun, condition=lambda: next(flags)))
    trainer.run()
    assert [name for name, _ in saved] == ['snapshot_iter_4']
    assert os.listdir(str(tmp_path)) == ['snapshot_iter_4']


def test_savefun_and_writer_are_exclusive():
    with pytest.raises(TypeError, match='cannot be specified together'):
        extensions.snapshot(savefun=serializers.save_npz,
                            writer=snapshot_writers.SimpleWriter())
    with pytest.raises(TypeError):
        extensions.snapshot(unknown=True)


def test_n_retains(tmp_path):
    trainer = _trainer(tmp_path, stop=(5, 'iteration'))
    trainer.extend(extensions.snapshot(
        filename='snap_{.updater.iteration}.npz', n_retains=2),
        trigger=(1, 'iteration'))
    trainer.extend(_Sleep(), name='sleep')
    trainer.run()
    assert sorted(os.listdir(str(tmp_path))) == ['snap_4.npz', 'snap_5.npz']


def test_num_retain_is_deprecated(tmp_path):
    with pytest.warns(DeprecationWarning, match='n_retains'):
        ext = extensions.snapshot(num_retain=3)
    assert ext.n_retains == 3
    with pytest.warns(DeprecationWarning):
        ext = extensions.snapshot_object(object(), 'x', num_retain=2)
    assert ext.n_retains == 2


def test_autoload(tmp_path):
    source = _model(2.)
    serializers.save_npz(str(tmp_path / 'model_1'), _model(1.))
    serializers.save_npz(str(tmp_path / 'model_2'), source)
    serializers.save_npz(str(tmp_path / 'other_3'), _model(3.))
    os.utime(str(tmp_path / 'model_1'), (1, 1))
    os.utime(str(tmp_path / 'model_2'), (2, 2))

    target = _model(0.)
    trainer = _trainer(tmp_path, stop=_stop_at_once)
    trainer.extend(extensions.snapshot_object(
        target, 'model_{.updater.iteration}', autoload=True))
    trainer.run()
    numpy.testing.assert_array_equal(target.l1.W.array, source.l1.W.array)


def test_autoload_without_snapshot(tmp_path):
    target = _model(0.)
    trainer = _trainer(tmp_path, stop=_stop_at_once)
    trainer.extend(extensions.snapshot_object(target, 'model_{.updater}',
                                              autoload=True))
    trainer.run()
    assert (target.l1.W.array == 0).all()


def test_snapshot_on_error(tmp_path):
    def fail(trainer):
        if trainer.updater.iteration == 3:
            raise RuntimeError('fail')

    trainer = _trainer(tmp_path)
    trainer.extend(extensions.snapshot(snapshot_on_error=True))
    trainer.extend(fail)
    with pytest.raises(RuntimeError):
        trainer.run(show_loop_exception_msg=False)
    assert sorted(os.listdir(str(tmp_path))) == [
        'snapshot_iter_2', 'snapshot_iter_3']


def test_finalize_finalizes_writer(tmp_path):
    finalized = []

    class Writer(snapshot_writers.SimpleWriter):

        def finalize(self):
            finalized.append(True)

    trainer = _trainer(tmp_path, stop=(1, 'iteration'))
    trainer.extend(extensions.snapshot(writer=Writer()))
    trainer.run()
    assert finalized == [True]


class _Sleep(training.Extension):
    """Makes file modification times distinct."""

    def __call__(self, trainer):
        import time
        time.sleep(0.02)


def _stop_at_once(trainer):
    return True


def _hold_open(path):
    # A live writer: a lock held on its temporary path (another process or
    # thread holds one the same way).
    from chainer.serializers import _temporary_files
    hold = _temporary_files.Hold()
    hold.take(str(path))
    return hold


def test_abandoned_temporary_directories_are_removed(tmp_path):
    # A killed run leaves its temporary snapshot directories; the next
    # trainer with the same snapshot name removes them, not a live one.
    for name in ('tmpsnapshot_iter_2abc', 'tmpsnapshot_iter_4def'):
        (tmp_path / name).mkdir()
        (tmp_path / name / 'snapshot_iter_2').write_bytes(b'partial')
    live = tmp_path / 'tmpsnapshot_iter_6live'
    live.mkdir()
    (tmp_path / 'tmpother_1xyz').mkdir()
    hold = _hold_open(live)
    try:
        trainer = _trainer(tmp_path, stop=(2, 'iteration'))
        trainer.extend(extensions.snapshot())
        trainer.run()
        assert sorted(os.listdir(str(tmp_path))) == [
            'snapshot_iter_2', 'tmpother_1xyz', 'tmpsnapshot_iter_6live']
    finally:
        hold.release()


def test_abandoned_npz_temporary_files_are_removed(tmp_path):
    target = tmp_path / 'model.npz'
    (tmp_path / '.model.npz.dead0001.tmp').write_bytes(b'partial')
    (tmp_path / '.model.npz.live0002.tmp').write_bytes(b'writing')
    (tmp_path / '.other.npz.dead0003.tmp').write_bytes(b'partial')
    hold = _hold_open(tmp_path / '.model.npz.live0002.tmp')
    try:
        serializers.save_npz(str(target), _model(1.))
    finally:
        hold.release()
    assert sorted(os.listdir(str(tmp_path))) == [
        '.model.npz.live0002.tmp', '.other.npz.dead0003.tmp', 'model.npz']
    loaded = _model(0.)
    serializers.load_npz(str(target), loaded)
    assert (loaded.l1.W.array == 1).all()


@pytest.mark.parametrize('damage', ['truncated', 'empty', 'bit-flip'])
def test_autoload_skips_damaged_snapshot(tmp_path, damage):
    serializers.save_npz(str(tmp_path / 'model_1'), _model(1.),
                         compression=False)
    serializers.save_npz(str(tmp_path / 'model_2'), _model(2.),
                         compression=False)
    newest = tmp_path / 'model_3'
    serializers.save_npz(str(newest), _model(3.), compression=False)
    data = newest.read_bytes()
    if damage == 'truncated':
        data = data[:len(data) // 2]
    elif damage == 'empty':
        data = b''
    else:
        # A byte of an array, inside the archive: its checksum fails.
        at = data.index(numpy.float32(3.).tobytes())
        data = data[:at] + b'\xff' + data[at + 1:]
    newest.write_bytes(data)
    for i, name in enumerate(('model_1', 'model_2', 'model_3')):
        os.utime(str(tmp_path / name), (i + 1, i + 1))

    target = _model(0.)
    trainer = _trainer(tmp_path, stop=_stop_at_once)
    trainer.extend(extensions.snapshot_object(
        target, 'model_{.updater.iteration}', autoload=True))
    with pytest.warns(RuntimeWarning, match='model_3 is damaged'):
        trainer.run()
    assert (target.l1.W.array == 2).all()
    # The damaged file is left for the user to look at.
    assert newest.exists()


def test_autoload_all_damaged_starts_afresh(tmp_path):
    (tmp_path / 'model_1').write_bytes(b'PK\3\4garbage')
    target = _model(0.)
    trainer = _trainer(tmp_path, stop=_stop_at_once)
    trainer.extend(extensions.snapshot_object(
        target, 'model_{.updater.iteration}', autoload=True))
    with pytest.warns(RuntimeWarning, match='model_1 is damaged'):
        trainer.run()
    assert (target.l1.W.array == 0).all()


def _classifier():
    model = chainer.Sequential(
        L.Linear(4, 16), chainer.functions.relu,
        lambda h: chainer.functions.dropout(h, 0.5), L.Linear(16, 3))
    return L.Classifier(model)


def _run_training(out, stop, resume=False, seed=0):
    """Trains a small classifier with default shuffling and dropout,
    taking a snapshot every 5 iterations; returns the log and the
    parameters."""
    import random

    from chainer import iterators
    from chainer import optimizers

    numpy.random.seed(seed)
    random.seed(seed)
    rng = numpy.random.RandomState(1)
    x = rng.randn(30, 4).astype(numpy.float32)
    t = (rng.rand(30) * 3).astype(numpy.int32)
    data = chainer.datasets.TupleDataset(x, t)
    model = _classifier()
    optimizer = optimizers.MomentumSGD(lr=0.05)
    optimizer.setup(model)
    train_iter = iterators.SerialIterator(data, 4)
    updater = training.updaters.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (stop, 'iteration'), out=str(out))
    trainer.extend(extensions.LogReport(trigger=(1, 'iteration')))
    trainer.extend(_DrawPythonRandom(), trigger=(1, 'iteration'))
    trainer.extend(extensions.snapshot(autoload=resume),
                   trigger=(5, 'iteration'))
    trainer.run()
    log = [{k: v for k, v in entry.items() if k != 'elapsed_time'}
           for entry in trainer.get_extension('LogReport').log]
    params = {name: p.array.copy() for name, p in model.namedparams()}
    return log, params


class _DrawPythonRandom(training.Extension):
    """Reports a number drawn from Python's random, as user code may."""

    priority = training.PRIORITY_WRITER + 1

    def __call__(self, trainer):
        import random
        chainer.report({'draw': random.random()})


def test_resumed_run_equals_uninterrupted_run(tmp_path):
    expected_log, expected_params = _run_training(tmp_path / 'whole', 23)
    _run_training(tmp_path / 'resumed', 10)
    # The resumed process starts from other seeds, as a new process would.
    log, params = _run_training(tmp_path / 'resumed', 23, resume=True,
                                seed=123)
    assert len(log) == 23
    assert log == expected_log
    assert sorted(params) == sorted(expected_params)
    for name in params:
        numpy.testing.assert_array_equal(params[name], expected_params[name])


def test_snapshot_without_random_state_still_loads(tmp_path):
    # Snapshots written by Chainer 7.8 have no random_state keys.
    _run_training(tmp_path, 5)
    path = tmp_path / 'snapshot_iter_5'
    with numpy.load(str(path)) as f:
        arrays = {k: f[k] for k in f.files if 'random_state' not in k}
    assert len(arrays) < len(numpy.load(str(path)).files)
    numpy.savez(str(path), **arrays)
    os.replace(str(path) + '.npz', str(path))
    log, _ = _run_training(tmp_path, 8, resume=True)
    assert len(log) == 8


_TRAINING_SCRIPT = '''
import json, random, sys, time
import numpy, chainer, chainer.functions as F, chainer.links as L
from chainer import iterators, optimizers, training
from chainer.training import extensions

out, seed = sys.argv[1], int(sys.argv[2])
numpy.random.seed(seed)
random.seed(seed)
rng = numpy.random.RandomState(1)
x = rng.randn(60, 5).astype(numpy.float32)
t = (rng.rand(60) * 3).astype(numpy.int32)
model = L.Classifier(chainer.Sequential(
    L.Linear(5, 20), F.relu, lambda h: F.dropout(h, 0.3), L.Linear(20, 3)))
optimizer = optimizers.Adam()
optimizer.setup(model)
it = iterators.SerialIterator(chainer.datasets.TupleDataset(x, t), 8)
trainer = training.Trainer(
    training.updaters.StandardUpdater(it, optimizer), (60, 'iteration'),
    out=out)
trainer.extend(extensions.LogReport(trigger=(5, 'iteration')))
trainer.extend(extensions.snapshot(autoload=True, n_retains=2),
               trigger=(10, 'iteration'))
trainer.extend(lambda trainer: time.sleep(0.03), trigger=(1, 'iteration'))
trainer.run()
log = [{k: v for k, v in e.items() if k != 'elapsed_time'}
       for e in trainer.get_extension('LogReport').log]
with open(out + '/final.json', 'w') as f:
    json.dump({'log': log, 'W': model.predictor[0].W.array.tolist()}, f)
'''


def test_killed_run_resumes_to_the_same_result(tmp_path):
    # kill -9 in the middle of training, then the same command again.
    import json
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / 'train.py'
    script.write_text(_TRAINING_SCRIPT)

    def run(out, seed):
        return subprocess.Popen([sys.executable, str(script), str(out),
                                 str(seed)])

    assert run(tmp_path / 'whole', 0).wait(timeout=120) == 0
    proc = run(tmp_path / 'killed', 0)
    deadline = time.time() + 60
    while not (tmp_path / 'killed' / 'snapshot_iter_20').exists() \
            and proc.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    # Another seed, as a new process would have.
    assert run(tmp_path / 'killed', 5).wait(timeout=120) == 0
    with open(tmp_path / 'whole' / 'final.json') as f:
        expected = json.load(f)
    with open(tmp_path / 'killed' / 'final.json') as f:
        resumed = json.load(f)
    assert len(resumed['log']) == 12
    assert resumed == expected
    assert not [name for name in os.listdir(str(tmp_path / 'killed'))
                if name.startswith('tmp')]
