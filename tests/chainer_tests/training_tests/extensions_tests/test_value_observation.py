import types

from chainer import testing
from chainer import training
from chainer.training import extensions


def test_observe_value():
    ext = extensions.observe_value('it', lambda t: t.updater.iteration * 2)
    assert ext.trigger == (1, 'epoch')
    assert ext.priority == training.PRIORITY_WRITER
    assert ext.default_name == '_observe_value'
    trainer = testing.get_trainer_with_mock_updater((4, 'iteration'),
                                                    iter_per_epoch=2)
    seen = []
    trainer.extend(ext)
    trainer.extend(lambda t: seen.append(t.observation.get('it')),
                   name='record')
    trainer.run()
    assert seen == [None, 4, None, 8]


def test_observe_lr():
    trainer = testing.get_trainer_with_mock_updater((1, 'iteration'))
    optimizers = {'main': types.SimpleNamespace(lr=0.1),
                  'aux': types.SimpleNamespace(lr=0.02)}
    trainer.updater.get_optimizer = optimizers.__getitem__
    trainer.extend(extensions.observe_lr(), trigger=(1, 'iteration'))
    trainer.extend(extensions.observe_lr('aux', 'aux_lr'),
                   trigger=(1, 'iteration'))
    trainer.run()
    assert trainer.observation == {'lr': 0.1, 'aux_lr': 0.02}
