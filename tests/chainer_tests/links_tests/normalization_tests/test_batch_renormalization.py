import numpy

import chainer
from chainer.links.normalization import batch_renormalization as brn_module


def _f32(values):
    return numpy.array(values, numpy.float32)


def _inputs():
    x1 = (numpy.arange(12, dtype='f').reshape(4, 3) ** 1.5) / 7 - 0.5
    x2 = numpy.cos(numpy.arange(12, dtype='f')).reshape(4, 3) * 2
    return x1, x2


def test_matches_original():
    # Numbers of Chainer 7.8.1.
    x1, x2 = _inputs()
    brn = brn_module.BatchRenormalization(3, rmax=1.5, dmax=0.5)
    brn(x1)
    y = brn(x2)
    numpy.testing.assert_allclose(y.array, _f32([
        [1.4494227170944214, 0.8180872201919556, -1.2172834873199463],
        [-1.641168236732483, -1.3067195415496826, 0.626358151435852],
        [1.3875645399093628, 1.1982204914093018, -0.5042665600776672],
        [-1.518689751625061, -1.6367164850234985, -0.10928833484649658]]),
        rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(brn.avg_mean, _f32(
        [0.10868016630411148, 0.13517707586288452, 0.17634758353233337]),
        rtol=1e-6)
    numpy.testing.assert_allclose(brn.avg_var, _f32(
        [1.5660326480865479, 1.4008795022964478, 1.2356196641921997]),
        rtol=1e-6)
    brn(x1, finetune=True)
    assert brn.N == 1
    numpy.testing.assert_allclose(brn.avg_mean, _f32(
        [1.174753189086914, 1.6122512817382812, 2.1113948822021484]),
        rtol=1e-6)
    with chainer.using_config('train', False):
        y = brn(x2)
    numpy.testing.assert_allclose(y.array[0], _f32(
        [0.48691290616989136, -0.27906352281570435, -1.4114415645599365]),
        rtol=1e-5)


def test_attributes_and_initial_statistics():
    brn = brn_module.BatchRenormalization(
        3, initial_avg_mean=0.5, initial_avg_var=2.0, use_beta=False)
    assert brn.rmax == 1 and brn.dmax == 0
    assert brn.r is None and brn.d is None
    assert brn.beta is None
    assert (brn.avg_mean == 0.5).all() and (brn.avg_var == 2).all()
    x1, _ = _inputs()
    with chainer.using_config('train', False):
        y = brn(x1)
    numpy.testing.assert_allclose(
        y.array, (x1 - 0.5) / numpy.sqrt(2 + 2e-5), rtol=1e-5)


def test_rmax_one_dmax_zero_is_batch_normalization():
    from chainer.links.normalization import batch_normalization
    x1, _ = _inputs()
    brn = brn_module.BatchRenormalization(3)
    bn = batch_normalization.BatchNormalization(3)
    numpy.testing.assert_allclose(brn(x1).array, bn(x1).array, rtol=1e-5,
                                  atol=1e-6)
    numpy.testing.assert_allclose(brn.avg_var, bn.avg_var, rtol=1e-6)


def test_recomputation_uses_saved_statistics():
    x1, x2 = _inputs()
    brn = brn_module.BatchRenormalization(3, rmax=2, dmax=1)
    brn(x1)
    with chainer.using_config('_will_recompute', True):
        y1 = brn(x2)
    mean = brn.avg_mean.copy()
    with chainer.using_config('in_recomputing', True):
        y2 = brn(x2)
    numpy.testing.assert_array_equal(y1.array, y2.array)
    numpy.testing.assert_array_equal(brn.avg_mean, mean)
