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
