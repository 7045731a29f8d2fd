"""HDF5 serialization (skipped without h5py, except the error it gives)."""

import os

import numpy
import pytest

import chainer
from chainer import initializers
from chainer import optimizers
from chainer import serializers
from chainer.serializers import hdf5

FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'link.h5')

needs_h5py = pytest.mark.skipif(
    not hdf5._available, reason='h5py is not installed')


def make_link():
    """The link of fixtures/link.h5, with other values."""
    link = chainer.Link()
    with link.init_scope():
        link.W = chainer.Parameter(numpy.zeros((3, 4), 'f'))
        link.b = chainer.Parameter(numpy.zeros(3, 'f'))
        link.lazy = chainer.Parameter(initializers.Zero())
    link.add_persistent('count', 0)
    return link


class Net(chainer.Chain):

    def __init__(self, seed=0):
        super().__init__()
        rng = numpy.random.RandomState(seed)
        with self.init_scope():
            self.l1 = chainer.Link()
            with self.l1.init_scope():
                self.l1.W = chainer.Parameter(
                    rng.uniform(-1, 1, (3, 4)).astype('f'))
                self.l1.b = chainer.Parameter(numpy.zeros(3, 'f'))
        self.add_persistent('count', 0)


def train(net, opt, rng, steps):
    for _ in range(steps):
        for param in net.params():
            param.grad = rng.uniform(-1, 1, param.shape).astype('f')
        opt.update()
        net.count += 1


def test_missing_h5py_error(monkeypatch):
    monkeypatch.setattr(hdf5, '_available', False)
    for call in (lambda: serializers.save_hdf5('x.h5', make_link()),
                 lambda: serializers.load_hdf5('x.h5', make_link()),
                 lambda: hdf5.HDF5Serializer(None)):
        with pytest.raises(ImportError, match='pip install h5py'):
            call()
        with pytest.raises(RuntimeError, match='h5py is not installed'):
            call()


@needs_h5py
def test_none_needs_h5py_2_7(monkeypatch, tmp_path):
    # h5py before 2.7 has no empty datasets, which stand for None.
    with hdf5.h5py.File(str(tmp_path / 'none.h5'), 'w') as f:
        serializer = hdf5.HDF5Serializer(f)
        monkeypatch.setattr(hdf5.h5py.version, 'version_tuple', (2, 6, 0))
        with pytest.raises(RuntimeError, match='h5py>=2.7.0'):
            serializer('x', None)
        assert 'x' not in f
        monkeypatch.undo()
        serializer('x', None)
        assert f['x'].shape is None


@needs_h5py
def test_load_file_of_chainer_7_8():
    link = make_link()
    serializers.load_hdf5(FIXTURE, link)
    numpy.testing.assert_array_equal(
        link.W.array, numpy.arange(12, dtype='f').reshape(3, 4) / 10)
    numpy.testing.assert_array_equal(link.b.array, [1, 2, 3])
    assert link.lazy.array is None
    assert link.count == 2 and type(link.count) is int


@needs_h5py
def test_files_written_here_have_the_original_layout(tmp_path):
    import h5py
    link = make_link()
    link.W.array[...] = numpy.arange(12).reshape(3, 4) / 10
    link.b.array[...] = [1, 2, 3]
    link.count = 2
    serializers.save_hdf5(tmp_path / 'link.h5', link)

    def describe(path):
        items = {}
        with h5py.File(path, 'r') as f:
            def visit(name, obj):
                if isinstance(obj, h5py.Dataset):
                    data = None if obj.shape is None else obj[()]
                    items[name] = (obj.dtype, obj.shape, obj.compression,
                                   obj.compression_opts, repr(data))
            f.visititems(visit)
        return items

    assert describe(tmp_path / 'link.h5') == describe(FIXTURE)


@needs_h5py
def test_round_trip_of_model_and_optimizer(tmp_path):
    import h5py
    rng = numpy.random.RandomState(0)
    net = Net()
    opt = optimizers.Adam(alpha=0.01).setup(net)
    train(net, opt, rng, 2)
    serializers.save_hdf5(tmp_path / 'net.h5', net)
    serializers.save_hdf5(str(tmp_path / 'opt.h5'), opt, compression=9)
    assert sorted(os.listdir(tmp_path)) == ['net.h5', 'opt.h5']
    with h5py.File(tmp_path / 'opt.h5', 'r') as f:
        assert sorted(f) == ['epoch', 'l1', 't']
        assert sorted(f['l1/W']) == ['m', 't', 'v']
        assert f['l1/W/m'].compression_opts == 9
        assert f['t'].compression is None

    resumed = Net(seed=5)
    resumed_opt = optimizers.Adam(alpha=0.01).setup(resumed)
    serializers.load_hdf5(tmp_path / 'net.h5', resumed)
    serializers.load_hdf5(tmp_path / 'opt.h5', resumed_opt)
    assert resumed.count == 2 and resumed_opt.t == 2
    state = rng.get_state()
    train(net, opt, rng, 2)
    rng.set_state(state)
    train(resumed, resumed_opt, rng, 2)
    numpy.testing.assert_array_equal(resumed.l1.W.array, net.l1.W.array)
    numpy.testing.assert_array_equal(
        resumed.l1.W.update_rule.state['v'], net.l1.W.update_rule.state['v'])


@needs_h5py
def test_save_dictionary(tmp_path):
    import h5py
    serializers.save_hdf5(tmp_path / 'd.h5', {'a/b': numpy.arange(3),
                                              '/c': 2.5})
    with h5py.File(tmp_path / 'd.h5', 'r') as f:
        numpy.testing.assert_array_equal(f['a/b'][()], [0, 1, 2])
        assert f['c'][()] == 2.5
    with pytest.raises(TypeError, match='"x"'):
        serializers.save_hdf5(tmp_path / 'e.h5', {'x': {'not': 'array'}})
    assert not os.path.exists(tmp_path / 'e.h5')


@needs_h5py
def test_strict_and_missing_groups(tmp_path):
    import h5py
    serializers.save_hdf5(tmp_path / 'link.h5', make_link())
    net = Net()
    with pytest.raises(KeyError, match="'/l1/W' is not found"):
        serializers.load_hdf5(tmp_path / 'link.h5', net)
    with h5py.File(tmp_path / 'link.h5', 'r') as f:
        before = net.l1.W.array.copy()
        hdf5.HDF5Deserializer(f, strict=False).load(net)
        numpy.testing.assert_array_equal(net.l1.W.array, before)
        missing = hdf5.HDF5Deserializer(f)['nowhere']
        with pytest.raises(ValueError, match='group does not exist'):
            missing('x', 1)
        with pytest.raises(KeyError):
            missing('x', 1)


@needs_h5py
def test_mismatch_raises_naming_the_key(tmp_path):
    import h5py
    serializers.save_hdf5(tmp_path / 'link.h5', make_link())
    with h5py.File(tmp_path / 'link.h5', 'a') as f:
        del f['b']
        f['b'] = numpy.zeros(5, 'f')
    link = make_link()
    link.W.array[...] = 3.
    link.count = 7
    with pytest.raises(ValueError, match=r"'b' .*shape \(5,\)"):
        serializers.load_hdf5(tmp_path / 'link.h5', link)


@needs_h5py
def test_damaged_file(tmp_path):
    path = tmp_path / 'link.h5'
    serializers.save_hdf5(path, make_link())
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 3])
    link = make_link()
    with pytest.raises(ValueError, match='link.h5 is not a readable HDF5'):
        serializers.load_hdf5(path, link)
    with pytest.raises(FileNotFoundError):
        serializers.load_hdf5(tmp_path / 'missing.h5', link)


@needs_h5py
def test_failed_save_keeps_the_old_file(tmp_path):
    class Failing:
        def serialize(self, serializer):
            serializer('a', numpy.arange(3))
            raise RuntimeError('boom')

    path = tmp_path / 'link.h5'
    serializers.save_hdf5(path, make_link())
    before = path.read_bytes()
    with pytest.raises(RuntimeError, match='boom'):
        serializers.save_hdf5(path, Failing())
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ['link.h5']
