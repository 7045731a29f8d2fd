import pytest

from chainer import serializers
from chainer import testing
from chainer.training import triggers


# Firing sequences recorded with the original Chainer 7.8.1 on an updater
# that advances one iteration per step (``iter_per_epoch`` iterations per
# epoch).
EXPECTED = {
    ((3, 'iteration'), 5, 12): [
        False, False, True, False, False, True,
        False, False, True, False, False, True],
    ((1, 'epoch'), 5, 12): [
        False, False, False, False, True, False,
        False, False, False, True, False, False],
    ((0.5, 'epoch'), 5, 12): [
        False, False, True, False, True, False,
        False, True, False, True, False, False],
    ((1.5, 'epoch'), 3, 14): [
        False, False, False, False, True, False, False,
        False, True, False, False, False, False, True],
    ((0.4, 'epoch'), 4, 14): [
        False, True, False, True, True, False, True,
        False, True, True, False, True, True, False],
}


def _fire_sequence(trigger, trainer, n):
    fired = []
    for _ in range(n):
        trainer.updater.update()
        fired.append(trigger(trainer))
    return fired


@pytest.mark.parametrize('key', sorted(EXPECTED, key=str), ids=str)
def test_firing_sequence(key):
    spec, iter_per_epoch, n = key
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=None, iter_per_epoch=iter_per_epoch)
    trigger = triggers.IntervalTrigger(*spec)
    assert _fire_sequence(trigger, trainer, n) == EXPECTED[key]


@pytest.mark.parametrize('spec', [(3, 'iteration'), (0.5, 'epoch')])
def test_resume_keeps_sequence(spec):
    iter_per_epoch, n = 5, 12
    key = (spec, iter_per_epoch, n)
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=None, iter_per_epoch=iter_per_epoch)
    trigger = triggers.IntervalTrigger(*spec)
    first = _fire_sequence(trigger, trainer, 4)

    state = serializers.npz.serialize(trigger)
    assert sorted(state) == ['previous_epoch_detail', 'previous_iteration']
    resumed = triggers.IntervalTrigger(*spec)
    resumed.serialize(serializers.NpzDeserializer(state))
    rest = _fire_sequence(resumed, trainer, n - 4)
    assert first + rest == EXPECTED[key]


def test_resume_from_old_snapshot_guesses_previous():
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=None, iter_per_epoch=5)
    _fire_sequence(triggers.IntervalTrigger(3, 'iteration'), trainer, 4)
    resumed = triggers.IntervalTrigger(3, 'iteration')
    with pytest.warns(UserWarning, match='previous value of iteration'):
        resumed.serialize(serializers.NpzDeserializer({}))
    assert _fire_sequence(resumed, trainer, 2) == [False, True]


def test_invalid_unit():
    with pytest.raises(ValueError, match='Trigger unit must be either'):
        triggers.IntervalTrigger(1, 'second')


def test_training_length_and_str():
    trigger = triggers.IntervalTrigger(2, 'epoch')
    assert trigger.get_training_length() == (2, 'epoch')
    assert str(trigger) == "IntervalTrigger(2, 'epoch')"
