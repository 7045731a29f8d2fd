import pytest

from chainer import serializers
from chainer import testing
from chainer.training import triggers


def _fire_sequence(trigger, trainer, n):
    fired = []
    for _ in range(n):
        trainer.updater.update()
        fired.append(trigger(trainer))
    return fired


# Recorded with the original Chainer 7.8.1 (5 iterations per epoch).
@pytest.mark.parametrize('points,unit,n,expected', [
    ([2, 3, 7], 'iteration', 10,
     [False, True, True, False, False, False, True, False, False, False]),
    ([0.5, 1, 1.7], 'epoch', 12,
     [False, False, True, False, True, False,
      False, False, True, False, False, False]),
], ids=['iteration', 'epoch'])
def test_firing_sequence(points, unit, n, expected):
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=None, iter_per_epoch=5)
    trigger = triggers.ManualScheduleTrigger(points, unit)
    assert _fire_sequence(trigger, trainer, n) == expected


def test_finished_after_last_point():
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=None, iter_per_epoch=5)
    trigger = triggers.ManualScheduleTrigger(4, 'iteration')
    states = []
    for _ in range(6):
        trainer.updater.update()
        states.append((trigger(trainer), trigger.finished))
    assert states == [(False, False), (False, False), (False, False),
                      (True, True), (False, True), (False, True)]


def test_resume():
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=None, iter_per_epoch=5)
    trigger = triggers.ManualScheduleTrigger([2, 3, 7], 'iteration')
    first = _fire_sequence(trigger, trainer, 3)
    state = serializers.npz.serialize(trigger)
    assert sorted(state) == [
        'finished', 'previous_epoch_detail', 'previous_iteration']
    resumed = triggers.ManualScheduleTrigger([2, 3, 7], 'iteration')
    resumed.serialize(serializers.NpzDeserializer(state))
    assert first + _fire_sequence(resumed, trainer, 7) == [
        False, True, True, False, False, False, True, False, False, False]
    assert resumed.finished


def test_resume_without_finished_flag_recomputes_it():
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=None, iter_per_epoch=5)
    _fire_sequence(triggers.ManualScheduleTrigger(2, 'iteration'), trainer, 3)
    resumed = triggers.ManualScheduleTrigger(2, 'iteration')
    with pytest.warns(UserWarning):
        resumed.serialize(serializers.NpzDeserializer({}))
    assert not resumed.finished
    assert _fire_sequence(resumed, trainer, 1) == [False]
    assert resumed.finished


def test_invalid_unit():
    with pytest.raises(ValueError, match='Trigger unit must be either'):
        triggers.ManualScheduleTrigger([1], 'minute')
