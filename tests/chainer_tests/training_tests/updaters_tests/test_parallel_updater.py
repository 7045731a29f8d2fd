import numpy
import pytest

import chainer
from chainer import datasets
import chainer.functions as F
from chainer import iterators
import chainer.links as L
from chainer import optimizers
from chainer import training
from chainer.training import extensions


class Model(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(3, 1, initialW=numpy.ones((1, 3), 'f') * 0.1)

    def forward(self, x, t):
        loss = F.mean_squared_error(self.l(x), t)
        chainer.report({'loss': loss}, self)
        return loss


def _setup():
    rng = numpy.random.RandomState(0)
    x = rng.randn(20, 3).astype('f')
    t = x.sum(1, keepdims=True).astype('f')
    model = Model()
    optimizer = optimizers.SGD(0.1)
    optimizer.setup(model)
    iterator = iterators.SerialIterator(datasets.TupleDataset(x, t), 4,
                                        shuffle=False)
    return model, optimizer, iterator


def test_two_cpu_models_match_chainer(tmp_path):
    model, optimizer, iterator = _setup()
    updater = training.updaters.ParallelUpdater(
        iterator, optimizer, devices={'main': -1, 'second': '@numpy'})
    trainer = training.Trainer(updater, (2, 'epoch'), out=str(tmp_path))
    trainer.extend(extensions.LogReport(filename=None))
    trainer.run()

    # Recorded with Chainer 7.8.1 on the same run. The second epoch's losses
    # are small differences of float32 products, whose rounding depends on
    # the BLAS (or compiled kernel) that sums them: compare to 1e-4.
    log = trainer.get_extension('LogReport').log
    expected = [(1.7417889191769063, 1.36326099364087, 1, 5),
                (0.003382293609320186, 0.010105168461450376, 2, 10)]
    for entry, (main, second, epoch, iteration) in zip(log, expected):
        assert entry['main/loss'] == pytest.approx(main, rel=1e-4)
        assert entry['second/loss'] == pytest.approx(second, rel=1e-4)
        assert (entry['epoch'], entry['iteration']) == (epoch, iteration)
    expected_W = [[0.9980693459510803, 0.9938169717788696,
                   1.0180621147155762]]
    numpy.testing.assert_allclose(model.l.W.array, expected_W, rtol=1e-5)
    numpy.testing.assert_allclose(model.l.b.array, [0.016477329656481743],
                                  rtol=1e-5)
    second = updater._models['second']
    assert second is not model
    numpy.testing.assert_array_equal(second.l.W.array, model.l.W.array)


def test_models_given():
    model, optimizer, iterator = _setup()
    other = model.copy('copy')
    updater = training.updaters.ParallelUpdater(
        iterator, optimizer, models={'main': model, 'other': other},
        devices={'main': -1, 'other': -1})
    updater.update()
    numpy.testing.assert_array_equal(other.l.W.array, model.l.W.array)
    assert optimizer.t == 1


def test_requires_models_or_devices():
    _, optimizer, iterator = _setup()
    with pytest.raises(ValueError, match='either models or devices'):
        training.updaters.ParallelUpdater(iterator, optimizer)
    with pytest.raises(KeyError, match="must contain a 'main' key"):
        training.updaters.ParallelUpdater(
            iterator, optimizer, devices={'a': -1, 'b': -1})
