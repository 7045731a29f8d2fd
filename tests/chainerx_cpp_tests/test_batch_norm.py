"""The oneDNN batch normalization kernels against the NumPy path."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import testing
import chainerx_cpp


pytestmark = pytest.mark.skipif(
    not chainerx_cpp.is_available(), reason='chainerx_cpp is not built')

_SHAPES = [(5, 3), (100, 20), (4, 3, 5, 5), (2, 3, 7), (2, 3, 2, 3, 4),
           (1, 4, 3, 3), (3, 2, 1, 1)]


def _tolerance(dtype):
    if dtype == numpy.float64:
        return {'atol': 1e-12, 'rtol': 1e-12}
    return {'atol': 1e-5, 'rtol': 1e-4}


def _params(shape, dtype, seed=0):
    rs = numpy.random.RandomState(seed)
    x = rs.uniform(-2, 3, shape).astype(dtype)
    gamma = rs.uniform(0.5, 1.5, shape[1]).astype(dtype)
    beta = rs.uniform(-1, 1, shape[1]).astype(dtype)
    return x, gamma, beta


def _gradients(func, arrays, ggx_seed=None):
    # A computation of the output, the input gradients and (with ggx_seed)
    # the gradients of the sum of gx * ggx.
    def compute():
        vs = [chainer.Variable(a.copy()) for a in arrays]
        y = func(*vs)
        gy = numpy.random.RandomState(9).uniform(
            -1, 1, y.shape).astype(y.dtype)
        grads = chainer.grad([y], vs, [chainer.Variable(gy)],
                             enable_double_backprop=ggx_seed is not None)
        out = [y.array] + [g.array for g in grads]
        if ggx_seed is not None:
            ggx = numpy.random.RandomState(ggx_seed).uniform(
                -1, 1, arrays[0].shape).astype(arrays[0].dtype)
            second = chainer.grad([grads[0]], vs, [chainer.Variable(ggx)])
            out += [None if g is None else g.array for g in second]
        return out
    return compute


def _kernels(x, fixed=False):
    # The kernels of a batch normalization of x along axis 1, forward and
    # backward: float32, or float64 with spatial axes.
    if x.dtype == numpy.float64 and x.ndim == 2:
        return ()
    forward = ('fixed_batch_normalization_forward' if fixed
               else 'batch_normalization_forward')
    return forward, 'batch_normalization_backward'


def _assert_all_close(r0, r1, dtype):
    for a, b in zip(r0, r1):
        if a is None:
            assert b is None
            continue
        assert a.dtype == b.dtype and a.shape == b.shape
        testing.assert_allclose(a, b, **_tolerance(dtype))


@pytest.mark.filterwarnings('ignore::UserWarning')
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', _SHAPES, ids=str)
def test_batch_normalization_matches_numpy_path(shape, dtype,
                                                in_both_modes):
    arrays = _params(shape, dtype)
    r0, r1 = in_both_modes(_gradients(F.batch_normalization, arrays),
                           _kernels(arrays[0]))
    _assert_all_close(r0, r1, dtype)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', _SHAPES, ids=str)
def test_fixed_batch_normalization_matches_numpy_path(shape, dtype,
                                                      in_both_modes):
    x, gamma, beta = _params(shape, dtype)
    rs = numpy.random.RandomState(3)
    mean = rs.uniform(-1, 1, shape[1]).astype(dtype)
    var = rs.uniform(0.1, 2, shape[1]).astype(dtype)
    r0, r1 = in_both_modes(
        _gradients(F.fixed_batch_normalization, (x, gamma, beta, mean, var)),
        _kernels(x, fixed=True))
    _assert_all_close(r0, r1, dtype)


@pytest.mark.parametrize('shape', [(6, 3), (4, 3, 5, 5)], ids=str)
def test_double_backprop(shape, in_both_modes):
    arrays = _params(shape, numpy.float32, seed=1)
    r0, r1 = in_both_modes(
        _gradients(F.batch_normalization, arrays, ggx_seed=2),
        _kernels(arrays[0]))
    _assert_all_close(r0, r1, numpy.float32)
    rs = numpy.random.RandomState(4)
    stats = (rs.uniform(-1, 1, shape[1]).astype('f'),
             rs.uniform(0.1, 2, shape[1]).astype('f'))
    r0, r1 = in_both_modes(
        _gradients(F.fixed_batch_normalization, arrays + stats, ggx_seed=2),
        _kernels(arrays[0], fixed=True))
    _assert_all_close(r0, r1, numpy.float32)


def test_running_statistics(in_both_modes):
    x, gamma, beta = _params((8, 4, 3, 3), numpy.float32, seed=5)

    def compute():
        mean = numpy.full(4, 0.5, 'f')
        var = numpy.full(4, 2, 'f')
        F.batch_normalization(x, gamma, beta, running_mean=mean,
                              running_var=var, decay=0.7)
        return mean, var
    stats = in_both_modes(compute, ['batch_normalization_forward'])
    testing.assert_allclose(stats[0][0], stats[1][0], **_tolerance('f'))
    testing.assert_allclose(stats[0][1], stats[1][1], **_tolerance('f'))
    m = x.size // 4
    expected_var = 0.7 * 2 + 0.3 * x.var(axis=(0, 2, 3)) * m / (m - 1)
    testing.assert_allclose(stats[1][1], expected_var, rtol=1e-5)


def test_link_train_and_test(in_both_modes):
    x = _params((6, 5, 4, 4), numpy.float32, seed=6)[0]

    def compute():
        link = L.BatchNormalization(5)
        y_train = link(x).array
        with chainer.using_config('train', False):
            y_test = link(x).array
        return y_train, y_test, link.avg_mean, link.avg_var
    outputs = in_both_modes(compute, ['batch_normalization_forward',
                                      'fixed_batch_normalization_forward'])
    _assert_all_close(outputs[0], outputs[1], numpy.float32)


def test_non_contiguous_input(in_both_modes):
    x, gamma, beta = _params((4, 3, 6, 8), numpy.float32, seed=7)
    x = x[:, :, ::2, ::-1]
    r0, r1 = in_both_modes(
        _gradients(F.batch_normalization, (x, gamma, beta)), _kernels(x))
    _assert_all_close(r0, r1, numpy.float32)


def test_other_axes_fall_back(in_both_modes):
    x, gamma, beta = _params((4, 3, 5), numpy.float32, seed=8)
    r0, r1 = in_both_modes(
        _gradients(lambda *v: F.batch_normalization(*v, axis=(0, 1)),
                   (x, gamma[:1].repeat(5), beta[:1].repeat(5))), ())
    _assert_all_close(r0, r1, numpy.float32)
    gamma2 = numpy.ones((3, 5), 'f')
    r0, r1 = in_both_modes(
        _gradients(F.batch_normalization,
                   (x, gamma2, numpy.zeros((3, 5), 'f'))), ())
    _assert_all_close(r0, r1, numpy.float32)


def test_kernel_direct_errors():
    kernels = chainerx_cpp.get_kernels()
    x, gamma, beta = _params((4, 3, 2, 2), numpy.float32)
    with pytest.raises(ValueError):
        kernels.batch_normalization_forward(x, gamma[:2], beta, 2e-5)
    with pytest.raises(ValueError):
        kernels.batch_normalization_forward(x.astype('d'), gamma, beta, 2e-5)
    with pytest.raises(ValueError):
        kernels.batch_normalization_forward(x.ravel(), gamma, beta, 2e-5)
