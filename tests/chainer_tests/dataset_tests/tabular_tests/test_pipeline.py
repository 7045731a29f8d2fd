"""A tabular pipeline feeding the iterators, the converter and a Trainer."""

import numpy

import chainer
from chainer.dataset import tabular
import chainer.links as L
from chainer import iterators
from chainer import optimizers
from chainer import training


def _dataset():
    rng = numpy.random.RandomState(0)
    x = rng.randn(64, 2).astype(numpy.float32)
    t = (x[:, 0] + x[:, 1] > 0).astype(numpy.int32)
    weight = numpy.where(numpy.arange(64) % 8 == 0, 0., 1.)
    return tabular.from_data((('x', x), ('t', t), ('w', weight)))


def test_iterators_and_concat_examples():
    dataset = _dataset().slice[:10, ('x', 't')]
    for iterator in (
            iterators.SerialIterator(dataset, 4, shuffle=False),
            iterators.MultithreadIterator(dataset, 4, shuffle=False)):
        batch = next(iterator)
        x, t = chainer.dataset.concat_examples(batch)
        numpy.testing.assert_array_equal(x, dataset.fetch()[0][:4])
        assert x.dtype == numpy.float32 and t.dtype == numpy.int32
        assert t.shape == (4,)
        if hasattr(iterator, 'finalize'):
            iterator.finalize()


def test_fetch_and_convert_a_batch():
    dataset = _dataset().slice[:, ('x', 't')].asdict()
    batch = dataset.convert(dataset.slice[[0, 5]].fetch())
    assert batch['x'].shape == (2, 2) and batch['t'].shape == (2,)


def test_trainer_on_a_tabular_pipeline():
    dataset = _dataset()
    # Drop the examples of zero weight, scale the inputs.
    dataset = dataset.transform(
        ('x', 't', 'w'), lambda x, t, w: (2 * x, t, w))
    keep = [w > 0 for w in dataset.fetch()[2]]
    train = dataset.slice[keep, ('x', 't')]
    assert len(train) == 56

    model = L.Classifier(L.Linear(2, 2, initialW=numpy.zeros((2, 2), 'f')))
    optimizer = optimizers.SGD(lr=0.5)
    optimizer.setup(model)
    iterator = iterators.SerialIterator(train, 8, shuffle=False)
    updater = training.updaters.StandardUpdater(iterator, optimizer)
    trainer = training.Trainer(updater, (14, 'iteration'))
    losses = []
    trainer.extend(
        lambda trainer: losses.append(
            float(trainer.observation['main/loss'].array)),
        trigger=(1, 'iteration'))
    trainer.run()

    assert updater.iteration == 14
    assert iterator.epoch == 2
    assert losses[-1] < losses[0]
    x, t = train.convert(train.fetch())
    predicted = model.predictor(x).array.argmax(axis=1)
    accuracy = float((predicted == t).mean())
    assert accuracy > 0.9
