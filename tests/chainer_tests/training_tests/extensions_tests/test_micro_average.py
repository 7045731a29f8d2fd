import pytest

import chainer
from chainer import serializers
from chainer import testing
from chainer import training
from chainer.training import extensions


def test_micro_average():
    correct = [3, 1, 4, 1, 5, 9]
    total = [4, 2, 5, 2, 8, 10]
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=(6, 'iteration'), iter_per_epoch=3)

    def report(trainer):
        i = trainer.updater.iteration - 1
        chainer.report({'main/correct': correct[i], 'main/total': total[i]})

    results = []
    trainer.extend(report, name='report', priority=training.PRIORITY_WRITER)
    ext = extensions.MicroAverage('main/correct', 'main/total',
                                  'main/accuracy')
    assert ext.priority == training.PRIORITY_EDITOR
    trainer.extend(ext)
    trainer.extend(
        lambda t: results.append(t.observation.get('main/accuracy')),
        name='record')
    trainer.run()
    assert results == [None, None, pytest.approx(8 / 11),
                       None, None, pytest.approx(15 / 20)]


def test_skips_missing_values_and_resumes():
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=(1, 'iteration'))
    ext = extensions.MicroAverage('n', 'd', 'r', trigger=(5, 'iteration'))
    trainer.updater.update()
    trainer.observation = {'n': 1}
    ext(trainer)
    trainer.observation = {'n': 2, 'd': 4}
    ext(trainer)
    state = serializers.npz.serialize(ext)
    assert {k: int(v) for k, v in state.items()} == {
        '_numerator': 2, '_denominator': 4}
    restored = extensions.MicroAverage('n', 'd', 'r')
    restored.serialize(serializers.NpzDeserializer(state))
    assert (restored._numerator, restored._denominator) == (2, 4)
