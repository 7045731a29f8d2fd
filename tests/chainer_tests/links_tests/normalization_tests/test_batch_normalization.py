import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import initializers
from chainer import serializer
from chainer.links.normalization import batch_normalization as bn_module


def _inputs():
    x1 = (numpy.arange(12, dtype='f').reshape(4, 3) ** 1.5) / 7 - 0.5
    x2 = numpy.cos(numpy.arange(12, dtype='f')).reshape(4, 3) * 2
    x3 = numpy.sin(numpy.arange(12, dtype='f')).reshape(4, 3) + 1
    return x1, x2, x3


def _f32(values):
    return numpy.array(values, numpy.float32)


# Numbers of Chainer 7.8.1 on the inputs above.
ORIGINAL_Y1 = _f32([
    [-1.1410038471221924, -1.1936625242233276, -1.2221039533615112],
    [-0.635272204875946, -0.587556004524231, -0.561519980430603],
    [0.28942129015922546, 0.3233579099178314, 0.3438721299171448],
    [1.486854910850525, 1.4578607082366943, 1.4397517442703247]])
ORIGINAL_MEAN1 = _f32(
    [0.11747532337903976, 0.1612251251935959, 0.2111394852399826])
ORIGINAL_VAR1 = _f32(
    [1.187251329421997, 1.2629424333572388, 1.3349665403366089])
ORIGINAL_FINETUNE = [
    (_f32([0.029523760080337524, -0.09925529360771179,
           -0.13677948713302612]),
     _f32([4.975065231323242, 2.64231276512146, 0.3414981961250305])),
    (_f32([0.5489897131919861, 0.4750765562057495, 0.4240778982639313]),
     _f32([2.5290467739105225, 1.6542645692825317, 0.7914590835571289])),
]
ORIGINAL_TEST_Y = _f32([
    [-0.6596158742904663, -0.6470423936843872, -0.584517776966095],
    [-0.19284503161907196, 0.13044779002666473, 0.7566039562225342],
    [0.6606113314628601, 1.2989332675933838, 2.594736337661743],
    [1.765796422958374, 2.75423002243042, 4.8195977210998535]])


def test_running_statistics_and_finetune_match_original():
    x1, x2, x3 = _inputs()
    bn = bn_module.BatchNormalization(3)
    assert bn.N == 0
    numpy.testing.assert_array_equal(bn.avg_mean, numpy.zeros(3))
    numpy.testing.assert_array_equal(bn.avg_var, numpy.ones(3))
    y = bn(x1)
    numpy.testing.assert_allclose(y.array, ORIGINAL_Y1, rtol=1e-6,
                                  atol=1e-6)
    numpy.testing.assert_allclose(bn.avg_mean, ORIGINAL_MEAN1, rtol=1e-6)
    numpy.testing.assert_allclose(bn.avg_var, ORIGINAL_VAR1, rtol=1e-6)
    for n, (x, (mean, var)) in enumerate(zip((x2, x3), ORIGINAL_FINETUNE)):
        bn(x, finetune=True)
        assert bn.N == n + 1
        numpy.testing.assert_allclose(bn.avg_mean, mean, rtol=1e-6,
                                      atol=1e-7)
        numpy.testing.assert_allclose(bn.avg_var, var, rtol=1e-6)
    with chainer.using_config('train', False):
        y = bn(x1)
    numpy.testing.assert_allclose(y.array, ORIGINAL_TEST_Y, rtol=1e-6,
                                  atol=1e-6)
    assert bn.N == 2
    bn.start_finetuning()
    assert bn.N == 0
    bn(x1, finetune=True)
    # The first finetuning call replaces the statistics: rate 1.
    numpy.testing.assert_allclose(bn.avg_mean, x1.mean(axis=0), rtol=1e-6)
    numpy.testing.assert_allclose(bn.avg_var, x1.var(axis=0, ddof=1),
                                  rtol=1e-5)


def test_test_mode_leaves_statistics():
    x1, _, _ = _inputs()
    bn = bn_module.BatchNormalization(3, initial_avg_mean=0.5,
                                      initial_avg_var=4.0, eps=0)
    with chainer.using_config('train', False):
        y = bn(x1)
    numpy.testing.assert_allclose(y.array, (x1 - 0.5) / 2, rtol=1e-6)
    assert (bn.avg_mean == 0.5).all() and (bn.avg_var == 4).all()


def test_axis_and_initial_values_match_original():
    x = numpy.cos(numpy.arange(24, dtype='f')).reshape(2, 3, 2, 2)
    bn = bn_module.BatchNormalization(
        axis=(0, 2, 3), decay=0.5, eps=1e-3, initial_gamma=2.0,
        initial_beta=0.5)
    assert bn.avg_mean is None and bn.gamma.array is None
    y = bn(x)
    assert bn.gamma.shape == (3,)
    numpy.testing.assert_allclose(bn.avg_mean, _f32(
        [0.0789070725440979, 0.11001810431480408, -0.2227323204278946]),
        rtol=1e-6)
    numpy.testing.assert_allclose(bn.avg_var, _f32(
        [0.8126657009124756, 0.786933183670044, 0.6227321624755859]),
        rtol=1e-6)
    numpy.testing.assert_allclose(y.array[0, :, 0, 0], _f32(
        [2.7750048637390137, -1.9634337425231934, 1.7914961576461792]),
        rtol=1e-6)


def test_statistics_of_shape_match_original():
    x = numpy.cos(numpy.arange(24, dtype='f')).reshape(2, 3, 2, 2)[..., 0]
    bn = bn_module.BatchNormalization((3, 2), axis=0)
    bn(x)
    numpy.testing.assert_allclose(bn.avg_mean, _f32(
        [[0.09219270199537277, -0.013970479369163513],
         [-0.08056515455245972, 0.08102434873580933],
         [0.013129102066159248, -0.09195162355899811]]), rtol=1e-6)
    numpy.testing.assert_allclose(bn.avg_var, _f32(
        [[0.9012190699577332, 0.9152840375900269],
         [0.9046212434768677, 0.9044955968856812],
         [0.9153226613998413, 0.9012942314147949]]), rtol=1e-6)


def test_axis_int_becomes_tuple_and_lazy_size():
    bn = bn_module.BatchNormalization(axis=0)
    assert bn.axis == (0,)
    bn(numpy.ones((4, 3, 2), numpy.float32))
    assert bn.avg_mean.shape == (3, 2)
    with pytest.raises(RuntimeError, match='size or axis'):
        bn_module.BatchNormalization()


def test_parameters_dtypes_and_persistents():
    bn = bn_module.BatchNormalization(3)
    assert bn.gamma.dtype == numpy.float32
    assert (bn.gamma.array == 1).all() and (bn.beta.array == 0).all()
    assert sorted(bn._persistent) == ['N', 'avg_mean', 'avg_var']
    assert sorted(name for name, _ in bn.namedparams()) == ['/beta',
                                                             '/gamma']
    bn = bn_module.BatchNormalization(3, dtype=numpy.float64,
                                      initial_gamma=initializers.Constant(2))
    assert bn.gamma.dtype == numpy.float64
    assert bn.avg_mean.dtype == numpy.float64
    assert (bn.gamma.array == 2).all()
    with chainer.using_config('dtype', chainer.mixed16):
        bn = bn_module.BatchNormalization(3)
    assert bn.avg_var.dtype == numpy.float32


def test_without_gamma_and_beta():
    x1, _, _ = _inputs()
    bn = bn_module.BatchNormalization(3, use_gamma=False, use_beta=False)
    assert bn.gamma is None and bn.beta is None
    assert list(bn.params()) == []
    y = bn(x1)
    expected = F.batch_normalization(
        x1, numpy.ones(3, 'f'), numpy.zeros(3, 'f'))
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-6)


def test_str_like_original():
    assert str(bn_module.BatchNormalization(3)) == (
        'BatchNormalization(size=3, decay=0.9, eps=2e-05, dtype=float32, '
        'use_gamma=True, use_beta=True)')
    assert str(bn_module.BatchNormalization(
        (3, 4), dtype=numpy.float64, decay=0.5, eps=1e-3)) == (
        'BatchNormalization(size=3, decay=0.5, eps=0.001, dtype=float64, '
        'use_gamma=True, use_beta=True)')


def test_str_of_uninitialized_and_without_gamma():
    # The original raises AttributeError on the first and prints
    # use_gamma=True on the second.
    assert str(bn_module.BatchNormalization(axis=0)) == (
        'BatchNormalization(size=None, decay=0.9, eps=2e-05, '
        'dtype=float32, use_gamma=True, use_beta=True)')
    assert 'use_gamma=False' in str(
        bn_module.BatchNormalization(3, use_gamma=False))


def test_test_argument_refused():
    bn = bn_module.BatchNormalization(3)
    with pytest.raises(ValueError, match='test argument'):
        bn(numpy.ones((2, 3), numpy.float32), test=True)


def test_recomputation_leaves_statistics():
    x1, _, _ = _inputs()
    bn = bn_module.BatchNormalization(3)
    with chainer.using_config('in_recomputing', True):
        bn(x1, finetune=True)
    assert bn.N == 0
    numpy.testing.assert_array_equal(bn.avg_mean, numpy.zeros(3))


class _DictSerializer(serializer.Serializer):

    def __init__(self, target, prefix=''):
        self.target = target
        self.prefix = prefix

    def __getitem__(self, key):
        return _DictSerializer(self.target, self.prefix + key + '/')

    def __call__(self, key, value):
        self.target[self.prefix + key] = numpy.asarray(value)
        return value


class _DictDeserializer(serializer.Deserializer):

    def __init__(self, source, prefix=''):
        self.source = source
        self.prefix = prefix

    def __getitem__(self, key):
        return _DictDeserializer(self.source, self.prefix + key + '/')

    def __call__(self, key, value):
        data = self.source[self.prefix + key]
        if value is None:
            return data
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, data)
            return value
        return type(value)(data)


def test_save_and_load_through_a_file(tmp_path):
    x1, x2, _ = _inputs()
    bn = bn_module.BatchNormalization(3)
    bn(x1)
    bn(x2, finetune=True)
    saved = {}
    _DictSerializer(saved).save(bn)
    assert sorted(saved) == ['N', 'avg_mean', 'avg_var', 'beta', 'gamma']
    path = tmp_path / 'bn.npz'
    numpy.savez(path, **saved)
    loaded = bn_module.BatchNormalization(3)
    with numpy.load(path) as npz:
        _DictDeserializer(dict(npz)).load(loaded)
    assert loaded.N == 1
    numpy.testing.assert_array_equal(loaded.avg_mean, bn.avg_mean)
    numpy.testing.assert_array_equal(loaded.avg_var, bn.avg_var)


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        bn = bn_module.BatchNormalization(3)
    x = numpy.random.RandomState(0).uniform(-1, 1, (5, 3))
    gy = numpy.random.RandomState(1).uniform(-1, 1, (5, 3))
    gradient_check.check_backward(
        lambda x: bn(x), x, gy, params=(bn.gamma, bn.beta), atol=1e-4,
        rtol=1e-3)


@pytest.mark.gpu
def test_gpu_statistics_match_cpu():
    from chainer.backends import cuda
    x1, x2, _ = _inputs()
    bn = bn_module.BatchNormalization(3)
    bn.to_gpu()
    bn(cuda.to_gpu(x1))
    numpy.testing.assert_allclose(cuda.to_cpu(bn.avg_mean), ORIGINAL_MEAN1,
                                  rtol=1e-5)
    numpy.testing.assert_allclose(cuda.to_cpu(bn.avg_var), ORIGINAL_VAR1,
                                  rtol=1e-5)
