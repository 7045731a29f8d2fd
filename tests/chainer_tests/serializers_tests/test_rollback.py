"""A load that fails leaves its target exactly as it was.

Chainer 7.8.1 raises on these files too (the error types checked here are
the ones it raises), but keeps what it loaded before the failing key; it
also loads, by broadcasting, an array whose shape only broadcasts to the
parameter's.
"""

import pickle
import zipfile

import numpy
import pytest

import chainer
from chainer import initializers
from chainer import iterators
from chainer import links as L
from chainer import optimizers
from chainer import serializers
from chainer import training
from chainer.serializers import hdf5
from chainer.serializers import npz

needs_h5py = pytest.mark.skipif(
    not hdf5._available, reason='h5py is not installed')


class Net(chainer.Chain):

    def __init__(self, seed=0, lazy=False):
        super().__init__()
        init = initializers.Constant(seed + .5)
        with self.init_scope():
            self.l1 = L.Linear(None if lazy else 3, 2, initialW=init)
            self.l2 = L.Linear(2, 2, initialW=init)
        self.add_persistent('count', seed)
        self.add_persistent('stats', numpy.full(2, seed, numpy.float32))

    def forward(self, x):
        return self.l2(self.l1(x))


def train(net, opt, steps):
    rng = numpy.random.RandomState(0)
    for _ in range(steps):
        for param in net.params():
            param.grad = rng.uniform(-1, 1, param.shape).astype('f')
        opt.update()
    opt.new_epoch()


def state(obj):
    """Every value that saving ``obj`` writes, copied."""
    return {key: numpy.array(value, copy=True)
            for key, value in npz.serialize(obj).items()}


def assert_state(obj, expected):
    actual = state(obj)
    assert sorted(actual) == sorted(expected)
    for key, value in expected.items():
        assert actual[key].dtype == value.dtype, key
        if value.dtype == object:
            assert actual[key][()] == value[()], key
        else:
            numpy.testing.assert_array_equal(actual[key], value, err_msg=key)


def save(path, obj, change=None):
    """Saves ``obj`` to ``path`` (NPZ or HDF5), after ``change(arrays)``."""
    arrays = state(obj)
    if change is not None:
        change(arrays)
    if str(path).endswith('.h5'):
        serializers.save_hdf5(path, arrays)
    else:
        serializers.save_npz(path, arrays)


LOADERS = [
    pytest.param(serializers.load_npz, '.npz', id='npz'),
    pytest.param(serializers.load_hdf5, '.h5', id='hdf5',
                 marks=needs_h5py),
]


# Links -------------------------------------------------------------------


@pytest.mark.parametrize('load, suffix', LOADERS)
@pytest.mark.parametrize('shape', [(5, 2), (2,), (1, 2)])
def test_link_with_another_shape_is_unchanged(tmp_path, load, suffix,
                                              shape):
    # l1 and its values load first; l2/W is refused, also when its shape
    # broadcasts to (2, 2).
    path = tmp_path / ('net' + suffix)
    save(path, Net(1), lambda a: a.update(
        {'l2/W': numpy.ones(shape, numpy.float32)}))
    target = Net(0)
    before = state(target)
    pattern = r"'l2/W'.*shape {}.*shape \(2, 2\)".format(
        str(shape).replace('(', r'\(').replace(')', r'\)'))
    with pytest.raises(ValueError, match=pattern):
        load(path, target)
    assert_state(target, before)
    assert target.count == 0


@pytest.mark.parametrize('load, suffix', LOADERS)
def test_uninitialized_parameter_stays_uninitialized(tmp_path, load, suffix):
    path = tmp_path / ('net' + suffix)
    source = Net(1)
    save(path, source, lambda a: a.update(
        {'l2/b': numpy.zeros(3, numpy.float32)}))
    target = Net(0, lazy=True)
    with pytest.raises(ValueError, match="'l2/b'"):
        load(path, target)
    assert target.l1.W.array is None
    assert target.l1.W.grad_var is None
    assert target.count == 0
    # The same link loads a good file afterwards.
    save(path, source)
    load(path, target)
    numpy.testing.assert_array_equal(target.l1.W.array, source.l1.W.array)
    assert target.count == 1


@pytest.mark.parametrize('load, suffix', LOADERS)
def test_float64_data_load_into_float32_and_complex_do_not(
        tmp_path, load, suffix):
    # As in Chainer: copied with casting='same_kind'.
    path = tmp_path / ('net' + suffix)
    save(path, Net(1), lambda a: a.update(
        {'l2/W': numpy.full((2, 2), 0.5)}))
    target = Net(0)
    load(path, target)
    assert target.l2.W.dtype == numpy.float32
    numpy.testing.assert_array_equal(target.l2.W.array, 0.5)

    save(path, Net(1), lambda a: a.update(
        {'l2/W': numpy.ones((2, 2), complex)}))
    target = Net(0)
    before = state(target)
    with pytest.raises(TypeError, match="'l2/W'.*complex128.*float32"):
        load(path, target)
    assert_state(target, before)


def test_scalar_that_does_not_convert_undoes_the_arrays(tmp_path):
    path = tmp_path / 'net.npz'
    save(path, Net(1), lambda a: a.update({'count': numpy.asarray(1.5)}))
    target = Net(0)
    before = state(target)
    with pytest.raises(TypeError, match="'count'"):
        serializers.load_npz(path, target)
    assert_state(target, before)


def test_non_strict_load_with_a_path(tmp_path):
    path = tmp_path / 'holder.npz'
    arrays = {'model/' + k: v for k, v in state(Net(1)).items()}
    arrays['model/l2/b'] = numpy.zeros(5, numpy.float32)
    del arrays['model/l1/b']
    serializers.save_npz(path, arrays)
    target = Net(0)
    before = state(target)
    with pytest.raises(ValueError, match=r"'model/l2/b'.*\(5,\)"):
        serializers.load_npz(path, target, path='model/', strict=False)
    assert_state(target, before)


# Damaged files -----------------------------------------------------------


def damage_member(path, name):
    # Flips a byte in the data of one member of a stored (uncompressed)
    # archive, so that its CRC no longer matches.
    data = bytearray(path.read_bytes())
    start = data.index(b'\x93NUMPY', data.index(name.encode()))
    header_size = 10 + int.from_bytes(data[start + 8:start + 10], 'little')
    data[start + header_size + 1] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize('damage, error, pattern', [
    (lambda p: p.write_bytes(p.read_bytes()[:p.stat().st_size // 2]),
     zipfile.BadZipFile, 'is not a readable NPZ file'),
    (lambda p: p.write_bytes(b'not an archive at all' * 8),
     pickle.UnpicklingError, 'is not a readable NPZ file.*not a ZIP'),
    (lambda p: p.write_bytes(b''), EOFError, 'is not a readable NPZ file'),
    (lambda p: damage_member(p, 'l2/W.npy'), zipfile.BadZipFile,
     "cannot read 'l2/W' from .*net.npz"),
])
def test_damaged_npz(tmp_path, damage, error, pattern):
    path = tmp_path / 'net.npz'
    # Stored, so that damage_member finds the array data; keys are written
    # in sorted order, so l1 loads before l2/W.
    serializers.save_npz(path, Net(1), compression=False)
    damage(path)
    target = Net(0)
    before = state(target)
    with pytest.raises(error, match=pattern) as info:
        serializers.load_npz(path, target)
    assert isinstance(info.value, ValueError)
    assert_state(target, before)


def test_missing_key_npz(tmp_path):
    path = tmp_path / 'net.npz'
    save(path, Net(1), lambda a: a.pop('stats'))
    target = Net(0)
    before = state(target)
    with pytest.raises(KeyError, match="'stats' is not found"):
        serializers.load_npz(path, target)
    assert_state(target, before)


@needs_h5py
def test_damaged_hdf5(tmp_path):
    import h5py
    path = tmp_path / 'net.h5'
    target = Net(0)
    before = state(target)

    # A group the file does not have: a ValueError, as in Chainer.
    with h5py.File(path, 'w') as f:
        f.create_dataset('count', data=1)
        f.create_dataset('stats', data=numpy.ones(2, 'f'))
        f.create_dataset('other/W', data=numpy.zeros((2, 3), 'f'))
    with pytest.raises(ValueError, match='group does not exist'):
        serializers.load_hdf5(path, target)
    assert_state(target, before)

    # A missing dataset after others have loaded.
    save(path, Net(1), lambda a: a.pop('l2/b'))
    with pytest.raises(KeyError, match="'/l2/b' is not found"):
        serializers.load_hdf5(path, target)
    assert_state(target, before)

    # Not an HDF5 file, and a truncated one: an OSError, as in Chainer.
    path.write_bytes(b'not HDF5' * 16)
    with pytest.raises(OSError, match='not a readable HDF5 file'):
        serializers.load_hdf5(path, target)
    save(path, Net(1))
    path.write_bytes(path.read_bytes()[:path.stat().st_size // 2])
    with pytest.raises(OSError, match='not a readable HDF5 file'):
        serializers.load_hdf5(path, target)
    assert_state(target, before)


# Optimizers --------------------------------------------------------------


def test_optimizer_is_unchanged(tmp_path):
    net = Net(1)
    opt = optimizers.Adam(alpha=0.01).setup(net)
    train(net, opt, 3)
    path = tmp_path / 'opt.npz'
    save(path, opt, lambda a: a.update(
        {'l2/b/v': numpy.zeros(3, numpy.float32)}))

    target_net = Net(0)
    target = optimizers.Adam(alpha=0.01).setup(target_net)
    train(target_net, target, 1)
    before = state(target)
    with pytest.raises(ValueError, match="'l2/b/v'"):
        serializers.load_npz(path, target)
    assert_state(target, before)
    assert (target.t, target.epoch) == (1, 1)
    assert target.target.l1.W.update_rule.t == 1

    # A fresh optimizer has no states to write in place: its rules read
    # them as new arrays, and are left without them.
    save(path, opt, lambda a: a.pop('l2/b/v'))
    fresh = optimizers.Adam().setup(Net(0))
    with pytest.raises(KeyError, match="'l2/b/v'"):
        serializers.load_npz(path, fresh)
    assert fresh.t == 0
    for param in fresh.target.params():
        assert param.update_rule.state is None
        assert param.update_rule.t == 0


# Trainers ----------------------------------------------------------------


def make_trainer(out, seed, iterations):
    net = L.Classifier(Net(seed))
    opt = optimizers.MomentumSGD(lr=0.1).setup(net)
    data = [(numpy.full(3, i, numpy.float32), numpy.int32(i % 2))
            for i in range(10)]
    it = iterators.SerialIterator(data, 4, shuffle=True)
    it.order_sampler = iterators.ShuffleOrderSampler(
        numpy.random.RandomState(seed))
    it.reset()
    updater = training.updaters.StandardUpdater(it, opt)
    trainer = training.Trainer(
        updater, (iterations, 'iteration'), out=str(out))
    trainer.extend(training.extensions.LogReport(trigger=(1, 'iteration')))
    return trainer


def test_trainer_is_unchanged(tmp_path):
    source = make_trainer(tmp_path / 'a', 1, 5)
    source.run()
    path = tmp_path / 'snapshot.npz'
    save(path, source, lambda a: a.update(
        {'updater/model:main/predictor/l2/b': numpy.zeros(
            (1, 2), numpy.float32)}))

    target = make_trainer(tmp_path / 'b', 0, 2)
    target.run()
    updater = target.updater
    iterator = updater.get_iterator('main')
    before = state(target)
    position = (updater.iteration, iterator.current_position, iterator.epoch,
                iterator._previous_epoch_detail)
    order = iterator._state.order.copy()
    rng = iterator.order_sampler._random.get_state()[1].copy()
    log = list(target.get_extension('LogReport').log)

    with pytest.raises(ValueError, match=r"predictor/l2/b'.*\(1, 2\)"):
        serializers.load_npz(path, target)

    assert_state(target, before)
    assert (updater.iteration, iterator.current_position, iterator.epoch,
            iterator._previous_epoch_detail) == position
    numpy.testing.assert_array_equal(iterator._state.order, order)
    numpy.testing.assert_array_equal(
        iterator.order_sampler._random.get_state()[1], rng)
    assert target.get_extension('LogReport').log == log
    assert updater.get_optimizer('main').t == 2

    # And the intact snapshot loads.
    save(path, source)
    serializers.load_npz(path, target)
    assert updater.iteration == 5


# Arbitrary objects -------------------------------------------------------


class Custom:
    """Loads scalars, strings, a None and an array, then more arrays."""

    def __init__(self, calls):
        self.on_call = calls.append
        self.step = 0
        self.name = 'start'
        self.extra = None
        self.history = [1, 2]
        self.table = {'a': 1}
        self.x = numpy.zeros(3, numpy.float32)
        self.y = numpy.zeros(2, numpy.float32)

    def serialize(self, serializer):
        self.on_call(serializer)
        self.step = serializer('step', self.step)
        self.name = str(serializer('name', None))
        self.extra = serializer('extra', self.extra)
        self.history.append(self.step)
        self.table['b'] = self.name
        serializer('x', self.x)
        self.total = float(self.x.sum())
        serializer('y', self.y)


def test_custom_object_serialize_runs_once_and_is_undone(tmp_path):
    path = tmp_path / 'c.npz'
    arrays = {'step': numpy.asarray(7), 'name': numpy.asarray('loaded'),
              'extra': numpy.arange(4), 'x': numpy.ones(3, numpy.float32),
              'y': numpy.ones(3, numpy.float32)}
    serializers.save_npz(path, arrays)
    calls = []
    target = Custom(calls)
    with pytest.raises(ValueError, match=r"'y'.*\(3,\).*\(2,\)"):
        serializers.load_npz(path, target)
    assert len(calls) == 1
    assert (target.step, target.name, target.extra) == (0, 'start', None)
    assert target.history == [1, 2]
    assert target.table == {'a': 1}
    assert not hasattr(target, 'total')
    numpy.testing.assert_array_equal(target.x, 0)

    arrays['y'] = numpy.ones(2, numpy.float32)
    serializers.save_npz(path, arrays)
    serializers.load_npz(path, target)
    assert len(calls) == 2
    assert (target.step, target.name, target.total) == (7, 'loaded', 3.0)
    numpy.testing.assert_array_equal(target.extra, numpy.arange(4))


class Raising:

    def __init__(self):
        self.x = numpy.zeros(2, numpy.float32)

    def serialize(self, serializer):
        serializer('x', self.x)
        raise RuntimeError('boom')


@pytest.mark.parametrize('load, suffix', LOADERS)
def test_error_of_serialize_itself_undoes_the_load(tmp_path, load, suffix):
    path = tmp_path / ('r' + suffix)
    arrays = {'x': numpy.ones(2, numpy.float32)}
    if suffix == '.h5':
        serializers.save_hdf5(path, arrays)
    else:
        serializers.save_npz(path, arrays)
    target = Raising()
    with pytest.raises(RuntimeError, match='boom'):
        load(path, target)
    numpy.testing.assert_array_equal(target.x, 0)


class Fallback:
    """Catches the KeyError of a missing key, as iterators do."""

    def __init__(self):
        self.x = numpy.zeros(2, numpy.float32)
        self.old = numpy.zeros(2, numpy.float32)

    def serialize(self, serializer):
        serializer('x', self.x)
        try:
            serializer('new_name', self.old)
        except KeyError:
            serializer('old_name', self.old)


def test_error_caught_by_serialize_does_not_undo(tmp_path):
    path = tmp_path / 'f.npz'
    serializers.save_npz(path, {'x': numpy.ones(2, numpy.float32),
                                'old_name': numpy.full(2, 2, 'f')})
    target = Fallback()
    serializers.load_npz(path, target)
    numpy.testing.assert_array_equal(target.x, 1)
    numpy.testing.assert_array_equal(target.old, 2)


def test_deserializers_load_is_all_or_nothing(tmp_path):
    path = tmp_path / 'net.npz'
    save(path, Net(1), lambda a: a.pop('stats'))
    target = Net(0)
    before = state(target)
    with numpy.load(path) as f:
        with pytest.raises(KeyError):
            npz.NpzDeserializer(f).load(target)
    assert_state(target, before)
    # Through a child, as a trainer snapshot's model is loaded.
    holder = {'model/' + k: v for k, v in state(Net(1)).items()}
    holder['model/l2/W'] = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match="'model/l2/W'"):
        npz.NpzDeserializer(holder)['model'].load(target)
    assert_state(target, before)


@needs_h5py
def test_hdf5_deserializers_load_is_all_or_nothing(tmp_path):
    import h5py
    path = tmp_path / 'net.h5'
    save(path, Net(1), lambda a: a.pop('stats'))
    target = Net(0)
    before = state(target)
    with h5py.File(path, 'r') as f:
        with pytest.raises(KeyError):
            hdf5.HDF5Deserializer(f).load(target)
    assert_state(target, before)


class Slotted:
    __slots__ = ('x', 'mark')

    def __init__(self):
        self.x = numpy.zeros(2, numpy.float32)

    def serialize(self, serializer):
        self.mark = serializer('mark', 0)
        serializer('x', self.x)


def test_slots_are_put_back(tmp_path):
    path = tmp_path / 's.npz'
    serializers.save_npz(path, {'mark': numpy.asarray(3),
                                'x': numpy.ones(3, numpy.float32)})
    target = Slotted()
    with pytest.raises(ValueError, match="'x'"):
        serializers.load_npz(path, target)
    assert not hasattr(target, 'mark')
