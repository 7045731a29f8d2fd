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


def test_fires_once():
    trainer = testing.get_trainer_with_mock_updater(stop_trigger=None)
    trigger = triggers.OnceTrigger()
    assert not trigger.finished
    assert _fire_sequence(trigger, trainer, 4) == [True, False, False, False]
    assert trigger.finished


@pytest.mark.parametrize('call_on_resume,expected', [
    (False, [False, False]), (True, [True, False])])
def test_resume(call_on_resume, expected):
    trainer = testing.get_trainer_with_mock_updater(stop_trigger=None)
    trigger = triggers.OnceTrigger(call_on_resume)
    _fire_sequence(trigger, trainer, 2)
    state = serializers.npz.serialize(trigger)
    resumed = triggers.OnceTrigger(call_on_resume)
    resumed.serialize(serializers.NpzDeserializer(state))
    assert _fire_sequence(resumed, trainer, 2) == expected


def test_resume_before_first_call_fires():
    trainer = testing.get_trainer_with_mock_updater(stop_trigger=None)
    state = serializers.npz.serialize(triggers.OnceTrigger())
    resumed = triggers.OnceTrigger()
    resumed.serialize(serializers.NpzDeserializer(state))
    assert _fire_sequence(resumed, trainer, 2) == [True, False]
