import functools
import os

import numpy
import pytest

import chainer
from chainer import iterators
import chainer.links as L
from chainer import optimizers
from chainer import testing
from chainer import training
from chainer.training import triggers


class _Recorder(training.Extension):

    def __init__(self, log, label, **attrs):
        self.log = log
        self.label = label
        for key, value in attrs.items():
            setattr(self, key, value)

    def __call__(self, trainer):
        self.log.append((self.label, trainer.updater.iteration))

    def initialize(self, trainer):
        self.log.append((self.label, 'initialize'))

    def finalize(self):
        self.log.append((self.label, 'finalize'))


def _trainer(stop=(2, 'iteration'), **kwargs):
    return testing.get_trainer_with_mock_updater(
        stop_trigger=stop, iter_per_epoch=5, **kwargs)


def test_call_order_follows_priority_then_registration(tmp_path):
    log = []
    trainer = _trainer()
    trainer.out = str(tmp_path / 'out')
    trainer.extend(_Recorder(log, 'reader1'))
    trainer.extend(_Recorder(log, 'writer'),
                   priority=training.PRIORITY_WRITER)
    trainer.extend(_Recorder(log, 'reader2'))
    trainer.extend(_Recorder(log, 'editor', priority=training.PRIORITY_EDITOR))
    trainer.extend(_Recorder(log, 'last', priority=-5))
    trainer.run()

    order = ['writer', 'editor', 'reader1', 'reader2', 'last']
    assert log == (
        [(name, 'initialize') for name in order] +
        [(name, 1) for name in order] +
        [(name, 2) for name in order] +
        [(name, 'finalize') for name in order])
    assert os.path.isdir(trainer.out)


def test_triggers_decide_calls():
    log = []
    trainer = _trainer(stop=(6, 'iteration'))
    trainer.extend(_Recorder(log, 'default'), name='a')
    trainer.extend(_Recorder(log, 'own', trigger=(2, 'iteration')))
    trainer.extend(_Recorder(log, 'given', trigger=(2, 'iteration')),
                   trigger=(3, 'iteration'))
    trainer.extend(_Recorder(log, 'manual'),
                   trigger=triggers.ManualScheduleTrigger([1, 5],
                                                          'iteration'))
    trainer.run()
    calls = [entry for entry in log if isinstance(entry[1], int)]
    by_label = {}
    for label, iteration in calls:
        by_label.setdefault(label, []).append(iteration)
    assert by_label == {
        'default': [1, 2, 3, 4, 5, 6],
        'own': [2, 4, 6],
        'given': [3, 6],
        'manual': [1, 5],
    }


def test_initialize_skipped_for_finished_trigger():
    log = []
    trainer = _trainer()
    trigger = triggers.ManualScheduleTrigger(1, 'iteration')
    trigger.finished = True
    trainer.extend(_Recorder(log, 'done'), trigger=trigger)
    trainer.run()
    assert ('done', 'initialize') not in log


def test_call_before_training():
    seen = []

    def ext(trainer):
        seen.append((trainer.updater.iteration, trainer.is_before_training))
        chainer.report({'x': 1.0})

    trainer = _trainer()
    trainer.extend(ext, call_before_training=True,
                   trigger=(100, 'iteration'))
    trainer.run()
    assert seen == [(0, True)]


def test_extension_names():
    trainer = _trainer()

    def my_extension(trainer):
        pass

    trainer.extend(my_extension)
    trainer.extend(my_extension)
    trainer.extend(_Recorder([], 'x'))
    trainer.extend(_Recorder([], 'x'))
    trainer.extend(_Recorder([], 'x'), name='custom')
    named = _Recorder([], 'x')
    named.name = 'preset'
    trainer.extend(named)

    assert list(trainer._extensions) == [
        'my_extension', 'my_extension_1', '_Recorder', '_Recorder_1',
        'custom', 'preset']
    assert trainer.get_extension('_Recorder_1').name == '_Recorder_1'
    assert trainer.get_extension('custom').name == 'custom'
    with pytest.raises(ValueError, match='extension missing not found'):
        trainer.get_extension('missing')


def test_extension_name_errors():
    trainer = _trainer()
    with pytest.raises(TypeError, match='name is not given'):
        trainer.extend(functools.partial(print))
    with pytest.raises(ValueError, match='"training" is prohibited'):
        trainer.extend(lambda t: None, name='training')
    with pytest.raises(ValueError, match='invoke_before_training'):
        trainer.extend(lambda t: None, invoke_before_training=True)


def test_make_extension_defaults_are_used():
    log = []

    @training.make_extension(trigger=(2, 'iteration'), priority=500,
                             default_name='decorated')
    def ext(trainer):
        log.append(('decorated', trainer.updater.iteration))

    trainer = _trainer(stop=(4, 'iteration'))
    trainer.extend(_Recorder(log, 'writer',
                             priority=training.PRIORITY_WRITER))
    trainer.extend(ext)
    trainer.run()
    assert 'decorated' in trainer._extensions
    assert [entry for entry in log if entry[1] != 'initialize'
            and entry[1] != 'finalize'] == [
        ('writer', 1), ('decorated', 2), ('writer', 2),
        ('writer', 3), ('decorated', 4), ('writer', 4)]


def test_error_handling(capsys):
    log = []

    class Failing(_Recorder):

        def __call__(self, trainer):
            if trainer.updater.iteration == 2:
                raise ValueError('boom')

        def on_error(self, trainer, exc, tb):
            log.append(('on_error', type(exc).__name__, str(exc),
                        tb is not None))

    class BadHandler(_Recorder):

        def on_error(self, trainer, exc, tb):
            raise RuntimeError('handler failed')

    trainer = _trainer(stop=(5, 'iteration'))
    trainer.extend(Failing(log, 'failing'))
    trainer.extend(BadHandler(log, 'bad'))
    with pytest.raises(ValueError, match='boom'):
        trainer.run()
    assert ('on_error', 'ValueError', 'boom', True) in log
    assert ('failing', 'finalize') in log and ('bad', 'finalize') in log
    err = capsys.readouterr().err
    assert 'Exception in main training loop: boom' in err
    assert 'Will finalize trainer extensions and updater' in err
    assert 'Exception in error handler: handler failed' in err


def test_error_message_can_be_hidden(capsys):
    def fail(trainer):
        raise KeyError('k')

    trainer = _trainer()
    trainer.extend(fail)
    with pytest.raises(KeyError):
        trainer.run(show_loop_exception_msg=False)
    assert 'Exception in main training loop' not in capsys.readouterr().err


def test_run_twice_and_elapsed_time():
    trainer = _trainer()
    with pytest.raises(RuntimeError, match='not been started'):
        trainer.elapsed_time
    trainer.run()
    elapsed = trainer.elapsed_time
    assert elapsed > 0
    assert trainer.elapsed_time == elapsed
    with pytest.raises(RuntimeError, match='multiple times'):
        trainer.run()


def test_observation_is_fresh_each_iteration():
    observations = []

    def record(trainer):
        chainer.report({'it': trainer.updater.iteration})
        observations.append(trainer.observation)

    trainer = _trainer(stop=(3, 'iteration'))
    trainer.extend(record)
    trainer.run()
    assert observations == [{'it': 1}, {'it': 2}, {'it': 3}]
    assert len({id(o) for o in observations}) == 3


def test_reporter_observers_of_optimizer_targets():
    model = chainer.Chain()
    with model.init_scope():
        model.l1 = L.Linear(2, 3)
    optimizer = optimizers.SGD()
    optimizer.setup(model)
    iterator = iterators.SerialIterator(
        [numpy.zeros(2, numpy.float32)], 1)
    updater = training.updaters.StandardUpdater(iterator, optimizer)
    trainer = training.Trainer(updater)
    observation = {}
    with trainer.reporter.scope(observation):
        chainer.report({'loss': 1.0}, model)
        chainer.report({'norm': 2.0}, model.l1)
    assert observation == {'main/loss': 1.0, 'main/l1/norm': 2.0}


def test_extensions_argument_and_never_stopping_trigger():
    log = []
    trainer = _trainer(stop=None, extensions=[_Recorder(log, 'ext')])
    assert trainer.get_extension('_Recorder').label == 'ext'
    assert trainer.stop_trigger(trainer) is False


def test_extension_base_class():
    ext = training.Extension()
    assert ext.trigger == (1, 'iteration')
    assert ext.priority == training.PRIORITY_READER
    assert ext.name is None
    assert ext.default_name == 'Extension'
    with pytest.raises(NotImplementedError):
        ext(None)
    with pytest.raises(AttributeError, match='invoke_before_training'):
        ext.invoke_before_training
    with pytest.raises(AttributeError, match='Extension object has no'):
        ext.unknown
    assert (training.PRIORITY_WRITER, training.PRIORITY_EDITOR,
            training.PRIORITY_READER) == (300, 200, 100)


def test_make_extension_attributes():
    def init(trainer):
        pass

    @training.make_extension()
    def plain(trainer):
        pass

    assert plain.trigger == (1, 'iteration')
    assert plain.priority == training.PRIORITY_READER
    assert plain.default_name == 'plain'
    assert plain.initialize is None and plain.finalize is None

    @training.make_extension(initializer=init)
    def with_init(trainer):
        pass

    assert with_init.initialize is init
    with pytest.raises(ValueError, match='invoke_before_training'):
        training.make_extension(invoke_before_training=True)
