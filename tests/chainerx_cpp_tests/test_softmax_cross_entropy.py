"""The fused softmax cross entropy kernel against the NumPy path."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
import chainerx_cpp


pytestmark = pytest.mark.skipif(
    not chainerx_cpp.is_available(), reason='chainerx_cpp is not built')


def _tolerance(dtype):
    if dtype == numpy.float64:
        return {'atol': 1e-12, 'rtol': 1e-12}
    return {'atol': 1e-6, 'rtol': 1e-5}


def _labels(n, n_class, ignore_label, every=3, dtype=numpy.int32):
    t = numpy.random.RandomState(5).randint(0, n_class, n)
    t[::every] = ignore_label
    return t.astype(dtype)


def _run(mode, x, t, backward_mode=None, **kwargs):
    with chainer.using_config('use_chainerx_cpp', mode):
        v = chainer.Variable(x.copy())
        loss = F.softmax_cross_entropy(v, t, **kwargs)
    gy = numpy.random.RandomState(0).uniform(
        -1, 1, loss.shape).astype(loss.dtype)
    loss.grad = gy
    with chainer.using_config('use_chainerx_cpp', backward_mode or mode):
        loss.backward()
    return loss.array, v.grad


def _check(x, t, backward_mode=None, **kwargs):
    loss0, gx0 = _run('never', x, t, **kwargs)
    loss1, gx1 = _run('always', x, t, backward_mode, **kwargs)
    assert loss1.dtype == loss0.dtype and loss1.shape == loss0.shape
    testing.assert_allclose(loss0, loss1, **_tolerance(x.dtype))
    testing.assert_allclose(gx0, gx1, **_tolerance(x.dtype))


@pytest.mark.parametrize('cache_score', [True, False])
@pytest.mark.parametrize('normalize', [True, False])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(1, 1), (7, 3), (100, 10), (20, 10000)],
                         ids=str)
def test_matches_numpy_path(shape, dtype, reduce, normalize, cache_score):
    x = numpy.random.RandomState(1).uniform(-4, 4, shape).astype(dtype)
    t = _labels(shape[0], shape[1], -1)
    _check(x, t, reduce=reduce, normalize=normalize, cache_score=cache_score)


@pytest.mark.parametrize('normalize', [True, False])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_all_ignored(dtype, reduce, normalize):
    x = numpy.random.RandomState(2).uniform(-1, 1, (4, 5)).astype(dtype)
    t = numpy.full(4, 3, numpy.int32)
    _check(x, t, reduce=reduce, normalize=normalize, ignore_label=3)
    with chainer.using_config('use_chainerx_cpp', 'always'):
        loss = F.softmax_cross_entropy(x, t, ignore_label=3, reduce=reduce,
                                       normalize=normalize)
    numpy.testing.assert_array_equal(loss.array, 0)


def test_other_ignore_label():
    x = numpy.random.RandomState(3).uniform(-1, 1, (9, 4)).astype('f')
    t = _labels(9, 4, 99, every=2)
    _check(x, t, ignore_label=99)


def test_non_contiguous_input():
    x = numpy.random.RandomState(4).uniform(-3, 3, (12, 8)).astype('f')
    x = x[::2, ::-1]
    _check(x, _labels(6, 8, -1), reduce='no')
    _check(numpy.asfortranarray(x), _labels(6, 8, -1))


@pytest.mark.parametrize('backward_mode', ['never', 'always'])
@pytest.mark.parametrize('cache_score', [True, False])
def test_forward_and_backward_paths_mix(backward_mode, cache_score):
    # The state each forward leaves serves the other path's backward.
    x = numpy.random.RandomState(6).uniform(-3, 3, (10, 6))
    t = _labels(10, 6, -1)
    _check(x, t, backward_mode=backward_mode, cache_score=cache_score)
    loss0, gx0 = _run('never', x, t, 'always', cache_score=cache_score)
    loss1, gx1 = _run('never', x, t, 'never', cache_score=cache_score)
    testing.assert_allclose(gx0, gx1, **_tolerance(x.dtype))


def test_falls_back_where_not_covered():
    # int64 labels, class weights, more than two axes and soft targets take
    # the NumPy path, with the same results under 'always'.
    rs = numpy.random.RandomState(7)
    x = rs.uniform(-2, 2, (6, 4)).astype('f')
    _check(x, _labels(6, 4, -1, dtype=numpy.int64))
    _check(x, _labels(6, 4, -1),
           class_weight=rs.uniform(0, 1, 4).astype('f'))
    x3 = rs.uniform(-2, 2, (3, 4, 5)).astype('f')
    _check(x3, rs.randint(0, 4, (3, 5)).astype(numpy.int32))
    soft = rs.uniform(0, 1, (6, 4)).astype('f')
    _check(x, soft / soft.sum(axis=1, keepdims=True))


def test_cached_score():
    x = numpy.random.RandomState(8).uniform(-3, 3, (5, 4)).astype('f')
    t = _labels(5, 4, -1)
    ys = []
    for mode in ('never', 'always'):
        with chainer.using_config('use_chainerx_cpp', mode):
            func = chainer.functions.loss.softmax_cross_entropy \
                .SoftmaxCrossEntropy()
            func.apply((x, t))
            ys.append(func.y)
    testing.assert_allclose(ys[0], ys[1], **_tolerance(x.dtype))


def test_bad_label_raises_as_numpy_path():
    x = numpy.zeros((3, 4), 'f')
    t = numpy.array([0, 4, 1], numpy.int32)
    errors = []
    for mode in ('never', 'always'):
        with chainer.using_config('use_chainerx_cpp', mode):
            with pytest.raises(Exception) as e:
                F.softmax_cross_entropy(x, t)
            errors.append(e.type)
    assert errors[0] is errors[1]


def test_kernel_direct_errors():
    kernels = chainerx_cpp.get_kernels()
    x = numpy.zeros((3, 4), 'f')
    t = numpy.zeros(3, numpy.int32)
    with pytest.raises(ValueError):
        kernels.softmax_cross_entropy_forward(
            x, numpy.array([0, 4, 1], numpy.int32), -1, True, True, True)
    with pytest.raises(ValueError):
        kernels.softmax_cross_entropy_forward(
            x, t.astype(numpy.int64), -1, True, True, True)
    with pytest.raises(ValueError):
        kernels.softmax_cross_entropy_forward(
            x, t[:2], -1, True, True, True)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_infinite_and_nan_scores(reduce):
    x = numpy.array([[0., 1., 2.],
                     [-numpy.inf, 0., 1.],
                     [numpy.inf, 0., 1.],
                     [0., numpy.nan, 1.]], numpy.float32)
    t = numpy.array([2, 1, 0, 2], numpy.int32)
    with numpy.errstate(invalid='ignore'):
        loss0, gx0 = _run('never', x, t, reduce=reduce)
        loss1, gx1 = _run('always', x, t, reduce=reduce)
    numpy.testing.assert_allclose(loss0, loss1, **_tolerance(x.dtype))
    numpy.testing.assert_allclose(gx0, gx1, **_tolerance(x.dtype))
