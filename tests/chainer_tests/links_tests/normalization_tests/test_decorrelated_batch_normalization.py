import numpy
import pytest

import chainer
from chainer import serializer
from chainer.links.normalization import \
    decorrelated_batch_normalization as dbn_module


def _f32(values):
    return numpy.array(values, numpy.float32)


def _input():
    return numpy.cos(numpy.arange(40, dtype='f')).reshape(5, 4, 2) + \
        numpy.arange(4, dtype='f')[:, None]


def test_initial_statistics():
    dbn = dbn_module.DecorrelatedBatchNormalization(6, groups=2)
    assert dbn.avg_mean.shape == (2, 3) and (dbn.avg_mean == 0).all()
    numpy.testing.assert_array_equal(
        dbn.avg_projection, numpy.broadcast_to(numpy.eye(3), (2, 3, 3)))
    assert sorted(dbn._persistent) == ['N', 'avg_mean', 'avg_projection']
    assert list(dbn.params()) == []


def test_matches_original():
    # Numbers of Chainer 7.8.1.
    dbn = dbn_module.DecorrelatedBatchNormalization(4, groups=2)
    y = dbn(_input())
    numpy.testing.assert_allclose(y.array[0], _f32([
        [1.260106086730957, 0.32669082283973694],
        [-0.025014720857143402, -1.0823948383331299],
        [-0.8063958287239075, 0.6039925217628479],
        [0.9686338305473328, 0.9557512998580933]]), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(dbn.avg_mean, _f32([
        [0.014871777966618538, 0.08010754734277725],
        [0.20168457925319672, 0.3184903860092163]]), rtol=1e-6)
    numpy.testing.assert_allclose(dbn.avg_projection, _f32([
        [[1.0748481750488281, 0.04066510871052742],
         [0.04066511243581772, 1.0721595287322998]],
        [[1.075080156326294, 0.03584550321102142],
         [0.035845499485731125, 1.0698254108428955]]]), rtol=1e-5)
    with chainer.using_config('train', False):
        y = dbn(_input()[:2])
    numpy.testing.assert_allclose(y.array[1], _f32([
        [-0.16908876597881317, -0.9577240347862244],
        [0.0801314041018486, 0.9533604383468628],
        [2.94156551361084, 2.977800130844116],
        [3.1097419261932373, 2.153003215789795]]), rtol=1e-5)


def test_whitens_in_training():
    dbn = dbn_module.DecorrelatedBatchNormalization(4, groups=1, eps=0)
    x = numpy.random.RandomState(0).normal(size=(200, 4)).astype('f')
    x[:, 1] += x[:, 0]
    y = dbn(x).array
    numpy.testing.assert_allclose(numpy.cov(y.T, bias=True), numpy.eye(4),
                                  atol=1e-3)


def test_finetune():
    dbn = dbn_module.DecorrelatedBatchNormalization(4, groups=2)
    dbn(_input(), finetune=True)
    assert dbn.N == 1
    x = _input()
    mean = x.transpose(1, 0, 2).reshape(2, 2, -1).mean(axis=2)
    numpy.testing.assert_allclose(dbn.avg_mean, mean, rtol=1e-5)
    dbn.start_finetuning()
    assert dbn.N == 0


class _Source(serializer.Deserializer):

    def __init__(self, values):
        self.values = values

    def __getitem__(self, key):
        raise KeyError(key)

    def __call__(self, key, value):
        data = self.values[key]
        if value is None:
            return data
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, data)
            return value
        return type(value)(data)


def test_loads_statistics_of_old_versions():
    dbn = dbn_module.DecorrelatedBatchNormalization(4, groups=2)
    old = {'avg_mean': numpy.array([1., 2.], 'f'),
           'avg_projection': numpy.array([[2., 0.], [0., 3.]], 'f'),
           'N': numpy.array(3)}
    with pytest.warns(UserWarning, match='old DecorrelatedBatch'):
        _Source(old).load(dbn)
    numpy.testing.assert_array_equal(dbn.avg_mean, [[1, 2], [1, 2]])
    numpy.testing.assert_array_equal(
        dbn.avg_projection, [[[2, 0], [0, 3]]] * 2)
    assert dbn.N == 3


def test_fix_functions():
    assert dbn_module.fix_avg_mean(numpy.zeros((2, 3)), 2).shape == (2, 3)
    with pytest.raises(ValueError):
        dbn_module.fix_avg_mean(numpy.zeros((1, 2, 3)), 2)
    with pytest.raises(ValueError):
        dbn_module.fix_avg_projection(numpy.zeros(3), 2)
    # One group: old statistics are valid, no warning.
    fixed = dbn_module.fix_avg_projection(numpy.eye(2), 1)
    assert fixed.shape == (1, 2, 2)


@pytest.mark.parametrize('groups', [1, 2])
@pytest.mark.parametrize('save, load', [
    (chainer.serializers.save_npz, chainer.serializers.load_npz),
    (chainer.serializers.save_hdf5, chainer.serializers.load_hdf5),
], ids=['npz', 'hdf5'])
def test_loads_files_of_old_versions(tmp_path, save, load, groups):
    if save is chainer.serializers.save_hdf5:
        pytest.importorskip('h5py')
    path = str(tmp_path / 'old')
    save(path, {'avg_mean': numpy.array([1., 2.], 'f'),
                'avg_projection': numpy.array([[2., 0.], [0., 3.]], 'f'),
                'N': numpy.array(3)})
    dbn = dbn_module.DecorrelatedBatchNormalization(2 * groups, groups=groups)
    if groups == 1:
        load(path, dbn)
    else:
        with pytest.warns(UserWarning, match='old DecorrelatedBatch'):
            load(path, dbn)
    numpy.testing.assert_array_equal(dbn.avg_mean, [[1, 2]] * groups)
    numpy.testing.assert_array_equal(
        dbn.avg_projection, [[[2, 0], [0, 3]]] * groups)
    assert dbn.N == 3
