import types

from chainer import serializers
from chainer.training import triggers


def test_firing_sequence():
    # Recorded with the original Chainer 7.8.1.
    elapsed = [0.3, 0.9, 1.0, 1.2, 1.5, 2.4, 3.5, 3.6, 4.01, 9.0, 9.1]
    expected = [False, False, False, True, False, True, True, False, True,
                True, True]
    trigger = triggers.TimeTrigger(1.0)
    trainer = types.SimpleNamespace()
    fired = []
    for t in elapsed:
        trainer.elapsed_time = t
        fired.append(trigger(trainer))
    assert fired == expected


def test_resume():
    trigger = triggers.TimeTrigger(2.0)
    trainer = types.SimpleNamespace(elapsed_time=2.5)
    assert trigger(trainer)
    state = serializers.npz.serialize(trigger)
    assert float(state['next_time']) == 4.0
    resumed = triggers.TimeTrigger(2.0)
    resumed.serialize(serializers.NpzDeserializer(state))
    trainer.elapsed_time = 3.0
    assert not resumed(trainer)
    trainer.elapsed_time = 4.5
    assert resumed(trainer)
