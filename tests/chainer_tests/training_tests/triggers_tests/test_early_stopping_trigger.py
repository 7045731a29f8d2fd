import pytest

from chainer import testing
from chainer.training import triggers


VALUES = [3., 2., 1., 2., 5., 4., 0.5, 0.7, 0.2, 1.0, 0.1, 0.9]


def _run(trigger, values, key='main/loss'):
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=None, iter_per_epoch=5)
    fired = []
    for value in values:
        trainer.updater.update()
        trainer.observation = {key: value}
        fired.append(trigger(trainer))
    return fired


# Recorded with the original Chainer 7.8.1.
@pytest.mark.parametrize('kwargs,key,expected', [
    (dict(check_trigger=(2, 'iteration'), patience=2), 'main/loss',
     [False] * 12),
    (dict(check_trigger=(2, 'iteration'), patience=1), 'main/loss',
     [False, False, False, False, False, True,
      False, False, False, True, False, False]),
    (dict(check_trigger=(1, 'iteration'), monitor='main/accuracy',
          patience=2), 'main/accuracy',
     [False, False, True, True, False, False,
      True, True, True, True, True, True]),
    (dict(check_trigger=(1, 'iteration'), patience=100,
          max_trigger=(7, 'iteration')), 'main/loss',
     [False] * 6 + [True] + [False] * 5),
], ids=['patience-2', 'patience-1', 'accuracy-auto-max', 'max-trigger'])
def test_firing_sequence(kwargs, key, expected):
    kwargs.setdefault('max_trigger', (100, 'iteration'))
    assert _run(triggers.EarlyStoppingTrigger(**kwargs), VALUES, key) == \
        expected


def test_mode_and_best():
    trigger = triggers.EarlyStoppingTrigger(monitor='main/loss', mode='max')
    assert trigger.best == float('-inf')
    trigger = triggers.EarlyStoppingTrigger(monitor='main/accuracy',
                                            mode='min')
    assert trigger.best == float('inf')


def test_patients_alias():
    assert triggers.EarlyStoppingTrigger(patients=5).patience == 5
    with pytest.raises(TypeError, match='Both'):
        triggers.EarlyStoppingTrigger(patience=2, patients=5)


def test_missing_monitor_warns():
    trigger = triggers.EarlyStoppingTrigger(
        check_trigger=(1, 'iteration'), monitor='main/other')
    with pytest.warns(UserWarning, match='main/other is not in observation'):
        assert _run(trigger, [1.0]) == [False]


def test_training_length_is_max_trigger():
    trigger = triggers.EarlyStoppingTrigger(max_trigger=(9, 'epoch'))
    assert trigger.get_training_length() == (9, 'epoch')


def test_stops_trainer():
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=triggers.EarlyStoppingTrigger(
            check_trigger=(1, 'iteration'), patience=2,
            max_trigger=(50, 'iteration')),
        iter_per_epoch=5)
    trainer.extend(lambda t: t.observation.update({'main/loss': 1.0}),
                   name='constant_loss', priority=1000)
    trainer.run()
    # The first value sets the best, then two checks without improvement.
    assert trainer.updater.iteration == 3
