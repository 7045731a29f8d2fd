import numpy
import pytest

import chainer
import chainer.links as L
from chainer import testing
from chainer import training
from chainer.training import extensions


def _model():
    model = chainer.Chain()
    with model.init_scope():
        model.l1 = L.Linear(
            2, 3, initialW=numpy.arange(6, dtype='f').reshape(3, 2) - 2,
            initial_bias=0)
    for param in model.params():
        param.grad = numpy.full_like(param.array, 0.5)
        param.grad.flat[0] = numpy.nan if param.name == 'b' else 0
    return model


def _run(*extensions_and_triggers, model):
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=(2, 'iteration'), iter_per_epoch=10)
    for ext in extensions_and_triggers:
        trainer.extend(ext, trigger=(1, 'iteration'))

    def bump(trainer):
        model.l1.W.array += 1

    observations = []
    trainer.extend(bump, priority=1000)
    trainer.extend(
        lambda t: observations.append(
            {k: float(v) for k, v in t.observation.items()}),
        name='record', priority=0)
    trainer.run()
    return observations


def _percentiles(x):
    return numpy.percentile(x, (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87))


def test_default_statistics():
    model = _model()
    ext = extensions.ParameterStatistics(model.l1, trigger=(2, 'iteration'),
                                         prefix='pre')
    assert ext.priority == training.PRIORITY_WRITER
    assert ext.default_name == 'parameter_statistics'
    first, second = _run(ext, model=model)
    assert first == {}

    # NumPy re-statement: the mean over the two iterations (W grew by 1
    # before the first and by 2 before the second call).
    W = (numpy.arange(6, dtype='f').reshape(3, 2) - 2).ravel()
    W1, W2 = W + 1, W + 2
    keys = []
    for param, attr in [('W', 'data'), ('W', 'grad'), ('b', 'data'),
                        ('b', 'grad')]:
        for name in ('mean', 'std', 'min', 'max', 'zeros'):
            keys.append('pre/l1/{}/{}/{}'.format(param, attr, name))
        keys.extend('pre/l1/{}/{}/percentile/{}'.format(param, attr, i)
                    for i in range(7))
    # Keys in the original's order (recorded with Chainer 7.8.1).
    assert list(second) == keys

    def mean2(f):
        return (f(W1) + f(W2)) / 2

    assert second['pre/l1/W/data/mean'] == pytest.approx(mean2(numpy.mean))
    assert second['pre/l1/W/data/std'] == pytest.approx(mean2(numpy.std))
    assert second['pre/l1/W/data/min'] == -0.5
    assert second['pre/l1/W/data/max'] == 4.5
    assert second['pre/l1/W/data/zeros'] == 1.0
    numpy.testing.assert_allclose(
        [second['pre/l1/W/data/percentile/%d' % i] for i in range(7)],
        (_percentiles(W1) + _percentiles(W2)) / 2)
    grad = numpy.array([0, .5, .5, .5, .5, .5], 'f')
    assert second['pre/l1/W/grad/mean'] == pytest.approx(grad.mean())
    assert second['pre/l1/W/grad/std'] == pytest.approx(grad.std())
    assert second['pre/l1/b/data/zeros'] == 3.0
    assert numpy.isnan(second['pre/l1/b/grad/mean'])
    assert second['pre/l1/b/grad/zeros'] == 0.0


def test_custom_statistics_and_options():
    model = _model()
    total = extensions.ParameterStatistics(
        [model], statistics={'sum': lambda x: x.sum()},
        report_grads=False, skip_nan_params=True, trigger=(1, 'iteration'))
    only_grads = extensions.ParameterStatistics(
        model.l1, statistics=None, report_params=False,
        skip_nan_params=True, trigger=(1, 'iteration'))
    only_grads.register_statistics('mx', lambda x: x.max())
    observations = _run(total, only_grads, model=model)
    # Recorded with the original Chainer 7.8.1.
    expected = [
        {'None/l1/W/data/sum': 9.0, 'None/l1/b/data/sum': 0.0,
         'l1/W/grad/mx': 0.5, 'l1/b/grad/mx': numpy.nan},
        {'None/l1/W/data/sum': 15.0, 'None/l1/b/data/sum': 0.0,
         'l1/W/grad/mx': 0.5, 'l1/b/grad/mx': numpy.nan},
    ]
    for observation, expected_observation in zip(observations, expected):
        assert list(observation) == list(expected_observation)
        numpy.testing.assert_equal(list(observation.values()),
                                   list(expected_observation.values()))
