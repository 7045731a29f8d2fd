import numpy
import pytest

import chainer
from chainer import backend
from chainer import datasets
import chainer.functions as F
from chainer import iterators
import chainer.links as L
from chainer import optimizers
from chainer import serializers
from chainer import testing
from chainer import training


class Model(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(2, 1, initialW=numpy.ones((1, 2), 'f'),
                               initial_bias=0.)
        self.calls = []

    def forward(self, x, t):
        self.calls.append((x.copy(), t.copy()))
        return F.mean_squared_error(self.l1(x), t)


def _dataset(n=6):
    x = numpy.arange(n * 2, dtype=numpy.float32).reshape(n, 2) / 10
    t = x.sum(axis=1, keepdims=True) * 0.5
    return datasets.TupleDataset(x, t)


def _updater(batch_size=2, **kwargs):
    model = Model()
    optimizer = optimizers.SGD(lr=0.1)
    optimizer.setup(model)
    iterator = iterators.SerialIterator(_dataset(), batch_size,
                                        shuffle=False)
    updater = training.updaters.StandardUpdater(iterator, optimizer,
                                                **kwargs)
    return updater, model, optimizer, iterator


def test_update_is_one_sgd_step():
    updater, model, optimizer, iterator = _updater()
    x = numpy.arange(4, dtype=numpy.float32).reshape(2, 2) / 10
    t = x.sum(axis=1, keepdims=True) * 0.5
    # NumPy re-statement of one SGD step on the mean squared error.
    W = numpy.ones((1, 2), numpy.float32)
    err = x @ W.T - t
    expected_W = W - 0.1 * (2 * err.T @ x / err.size)
    expected_b = -0.1 * (2 * err.sum(axis=0) / err.size)

    updater.update()
    assert updater.iteration == 1
    numpy.testing.assert_array_equal(model.calls[0][0], x)
    numpy.testing.assert_array_equal(model.calls[0][1], t)
    numpy.testing.assert_allclose(model.l1.W.array, expected_W, rtol=1e-6)
    numpy.testing.assert_allclose(model.l1.b.array, expected_b, atol=1e-7)
    assert optimizer.t == 1


def test_epoch_properties_follow_main_iterator():
    updater, _, optimizer, iterator = _updater()
    assert updater.get_iterator('main') is iterator
    assert updater.get_optimizer('main') is optimizer
    assert updater.get_all_optimizers() == {'main': optimizer}
    assert updater.get_all_optimizers() is not updater._optimizers
    states = []
    for _ in range(4):
        updater.update()
        states.append((updater.iteration, updater.epoch,
                       updater.epoch_detail, updater.previous_epoch_detail,
                       updater.is_new_epoch, optimizer.epoch))
    third = 1 / 3
    assert states == [
        (1, 0, pytest.approx(third), 0.0, False, 0),
        (2, 0, pytest.approx(2 * third), pytest.approx(third), False, 0),
        (3, 1, 1.0, pytest.approx(2 * third), True, 1),
        (4, 1, pytest.approx(1 + third), 1.0, False, 1),
    ]
    assert optimizer.use_auto_new_epoch


def test_no_auto_new_epoch():
    updater, _, optimizer, _ = _updater(auto_new_epoch=False)
    for _ in range(3):
        updater.update()
    assert updater.is_new_epoch
    assert optimizer.epoch == 0
    assert not optimizer.use_auto_new_epoch


@pytest.mark.parametrize('kind', ['tuple', 'dict', 'single'])
def test_converter_output_kinds(kind):
    received = []

    def converter(batch, device):
        received.append(device)
        x = numpy.stack([example[0] for example in batch])
        if kind == 'tuple':
            return (x,)
        if kind == 'dict':
            return {'x': x}
        return x

    def loss_func(*args, **kwargs):
        received.append((len(args), sorted(kwargs)))
        return F.sum(model.l1(kwargs.get('x', args[0] if args else None)))

    updater, model, _, _ = _updater(converter=converter,
                                    loss_func=loss_func)
    updater.update()
    expected_call = {'tuple': (1, []), 'dict': (0, ['x']),
                     'single': (1, [])}[kind]
    assert received == [None, expected_call]
    assert model.calls == []


def test_devices():
    updater, model, _, _ = _updater(device='@numpy')
    assert updater.device == backend.CpuDevice()
    assert updater.input_device == backend.CpuDevice()
    assert model.device == backend.CpuDevice()

    updater, _, _, _ = _updater(input_device=-1)
    assert updater.device is None
    assert updater.input_device == backend.CpuDevice()


def test_loss_scale_is_set_to_optimizers():
    updater, _, optimizer, _ = _updater(loss_scale=8.)
    assert updater.loss_scale == 8.
    assert optimizer._loss_scale == 8.


def test_unexpected_keyword():
    with pytest.raises(TypeError):
        _updater(unknown=1)


def test_dicts_of_iterators_and_optimizers():
    model = Model()
    main = optimizers.SGD().setup(model)
    other = optimizers.SGD().setup(Model())
    iterator = iterators.SerialIterator(_dataset(), 2)
    aux = iterators.SerialIterator(_dataset(), 3)
    updater = training.updaters.StandardUpdater(
        {'main': iterator, 'aux': aux}, {'main': main, 'other': other})
    assert updater.get_iterator('aux') is aux
    assert updater.get_all_optimizers() == {'main': main, 'other': other}
    assert other.use_auto_new_epoch


def test_finalize_finalizes_iterators():
    finalized = []

    class Iterator(iterators.SerialIterator):

        def finalize(self):
            finalized.append(self)

    model = Model()
    iterator = Iterator(_dataset(), 2)
    updater = training.updaters.StandardUpdater(
        iterator, optimizers.SGD().setup(model))
    updater.finalize()
    assert finalized == [iterator]


def test_serialize_round_trip():
    updater, model, optimizer, _ = _updater()
    for _ in range(4):
        updater.update()
    state = serializers.npz.serialize(updater)
    assert sorted(state) == [
        'iteration',
        'iterator:main/current_position', 'iterator:main/epoch',
        'iterator:main/is_new_epoch', 'iterator:main/previous_epoch_detail',
        'model:main/l1/W', 'model:main/l1/b',
        'optimizer:main/epoch', 'optimizer:main/l1/W/t',
        'optimizer:main/l1/b/t', 'optimizer:main/t',
    ]

    restored, restored_model, restored_optimizer, _ = _updater()
    restored.serialize(serializers.NpzDeserializer(state))
    assert restored.iteration == 4
    assert restored.epoch_detail == updater.epoch_detail
    assert restored_optimizer.t == 4 and restored_optimizer.epoch == 1
    numpy.testing.assert_array_equal(restored_model.l1.W.array,
                                     model.l1.W.array)
    updater.update()
    restored.update()
    numpy.testing.assert_array_equal(restored_model.l1.W.array,
                                     model.l1.W.array)


def test_with_mock_trainer_helper():
    trainer = testing.get_trainer_with_mock_updater((3, 'iteration'))
    trainer.run()
    assert trainer.updater.iteration == 3


@pytest.mark.gpu
def test_update_on_gpu():
    updater, model, _, _ = _updater(device='@cupy:0')
    assert isinstance(model.l1.W.array, chainer.backends.cuda.ndarray)
    updater.update()
    cpu_updater, cpu_model, _, _ = _updater()
    cpu_updater.update()
    numpy.testing.assert_allclose(chainer.backends.cuda.to_cpu(
        model.l1.W.array), cpu_model.l1.W.array, rtol=1e-6)
