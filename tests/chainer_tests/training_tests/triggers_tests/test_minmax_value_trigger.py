import pytest

from chainer import serializers
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
@pytest.mark.parametrize('cls,interval,expected', [
    (triggers.MinValueTrigger, 1,
     [True, True, True, False, False, False,
      True, False, True, False, True, False]),
    (triggers.MaxValueTrigger, 1,
     [True, False, False, False, True, False,
      False, False, False, False, False, False]),
    (triggers.MinValueTrigger, 2,
     [False, True, False, True, False, False,
      False, True, False, False, False, True]),
    (triggers.MaxValueTrigger, 3,
     [False, False, True, False, False, True,
      False, False, False, False, False, False]),
], ids=['min-1', 'max-1', 'min-2', 'max-3'])
def test_firing_sequence(cls, interval, expected):
    trigger = cls('main/loss', trigger=(interval, 'iteration'))
    assert _run(trigger, VALUES) == expected


def test_resume():
    trigger = triggers.MinValueTrigger('main/loss', (2, 'iteration'))
    first = _run(trigger, VALUES[:5])
    state = serializers.npz.serialize(trigger)
    assert 'best_value' in state
    assert 'interval_trigger/previous_iteration' in state
    assert 'summary/_names' in state

    resumed = triggers.MinValueTrigger('main/loss', (2, 'iteration'))
    resumed.serialize(serializers.NpzDeserializer(state))
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=None, iter_per_epoch=5)
    fired = []
    for i, value in enumerate(VALUES):
        trainer.updater.update()
        if i < 5:
            continue
        trainer.observation = {'main/loss': value}
        fired.append(resumed(trainer))
    assert first + fired == [False, True, False, True, False, False,
                             False, True, False, False, False, True]
