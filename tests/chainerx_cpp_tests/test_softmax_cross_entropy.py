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


# The fused kernels, forward and backward.
_KERNELS = ('softmax_cross_entropy_forward', 'softmax_cross_entropy_backward')


def _loss_and_grad(x, t, forward_mode=None, backward_mode=None, **kwargs):
    # A computation of the loss and the gradient of x, forward in
    # forward_mode and backward in backward_mode, or each in the mode in
    # use where None.
    def compute():
        mode = chainer.config.use_chainerx_cpp
        with chainer.using_config('use_chainerx_cpp', forward_mode or mode):
            v = chainer.Variable(x.copy())
            loss = F.softmax_cross_entropy(v, t, **kwargs)
        loss.grad = numpy.random.RandomState(0).uniform(
            -1, 1, loss.shape).astype(loss.dtype)
        with chainer.using_config('use_chainerx_cpp', backward_mode or mode):
            loss.backward()
        return loss.array, v.grad
    return compute


@pytest.fixture
def check(in_both_modes):
    """``check(x, t, kernels=_KERNELS, forward_mode=None,
    backward_mode=None, **kwargs)`` compares the loss and gradient of the
    NumPy path with those of the kernels (run by ``in_both_modes``)."""
    def check(x, t, kernels=_KERNELS, forward_mode=None, backward_mode=None,
              **kwargs):
        (loss0, gx0), (loss1, gx1) = in_both_modes(
            _loss_and_grad(x, t, forward_mode, backward_mode, **kwargs),
            kernels)
        assert loss1.dtype == loss0.dtype and loss1.shape == loss0.shape
        testing.assert_allclose(loss0, loss1, **_tolerance(x.dtype))
        testing.assert_allclose(gx0, gx1, **_tolerance(x.dtype))
    return check


@pytest.mark.parametrize('cache_score', [True, False])
@pytest.mark.parametrize('normalize', [True, False])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(1, 1), (7, 3), (100, 10), (20, 10000)],
                         ids=str)
def test_matches_numpy_path(shape, dtype, reduce, normalize, cache_score,
                            check):
    x = numpy.random.RandomState(1).uniform(-4, 4, shape).astype(dtype)
    t = _labels(shape[0], shape[1], -1)
    check(x, t, reduce=reduce, normalize=normalize, cache_score=cache_score)


@pytest.mark.parametrize('normalize', [True, False])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_all_ignored(dtype, reduce, normalize, check):
    x = numpy.random.RandomState(2).uniform(-1, 1, (4, 5)).astype(dtype)
    t = numpy.full(4, 3, numpy.int32)
    check(x, t, reduce=reduce, normalize=normalize, ignore_label=3)
    with chainer.using_config('use_chainerx_cpp', 'always'):
        loss = F.softmax_cross_entropy(x, t, ignore_label=3, reduce=reduce,
                                       normalize=normalize)
    numpy.testing.assert_array_equal(loss.array, 0)


def test_other_ignore_label(check):
    x = numpy.random.RandomState(3).uniform(-1, 1, (9, 4)).astype('f')
    t = _labels(9, 4, 99, every=2)
    check(x, t, ignore_label=99)


def test_non_contiguous_input(check):
    x = numpy.random.RandomState(4).uniform(-3, 3, (12, 8)).astype('f')
    x = x[::2, ::-1]
    check(x, _labels(6, 8, -1), reduce='no')
    check(numpy.asfortranarray(x), _labels(6, 8, -1))


@pytest.mark.parametrize('forward_mode, backward_mode, kernels', [
    (None, 'never', _KERNELS[:1]),
    ('never', None, _KERNELS[1:]),
], ids=['kernel-forward', 'kernel-backward'])
@pytest.mark.parametrize('cache_score', [True, False])
def test_forward_and_backward_paths_mix(forward_mode, backward_mode, kernels,
                                        cache_score, check):
    # The state each forward leaves serves the other path's backward.
    x = numpy.random.RandomState(6).uniform(-3, 3, (10, 6))
    t = _labels(10, 6, -1)
    check(x, t, kernels, forward_mode, backward_mode,
          cache_score=cache_score)


def test_falls_back_where_not_covered(check):
    # Class weights, more than two axes and soft targets take the NumPy
    # path, with the same results under 'always'; int64 labels take the
    # NumPy forward, and the backward kernel the state it leaves.
    rs = numpy.random.RandomState(7)
    x = rs.uniform(-2, 2, (6, 4)).astype('f')
    check(x, _labels(6, 4, -1, dtype=numpy.int64), _KERNELS[1:])
    check(x, _labels(6, 4, -1), (),
          class_weight=rs.uniform(0, 1, 4).astype('f'))
    x3 = rs.uniform(-2, 2, (3, 4, 5)).astype('f')
    check(x3, rs.randint(0, 4, (3, 5)).astype(numpy.int32), ())
    soft = rs.uniform(0, 1, (6, 4)).astype('f')
    check(x, soft / soft.sum(axis=1, keepdims=True), ())


def test_cached_score(in_both_modes):
    x = numpy.random.RandomState(8).uniform(-3, 3, (5, 4)).astype('f')
    t = _labels(5, 4, -1)

    def compute():
        func = chainer.functions.loss.softmax_cross_entropy \
            .SoftmaxCrossEntropy()
        func.apply((x, t))
        return func.y
    ys = in_both_modes(compute, _KERNELS[:1])
    testing.assert_allclose(ys[0], ys[1], **_tolerance(x.dtype))


def test_bad_label_raises_as_numpy_path(in_both_modes):
    # The labels are checked before either path runs: the kernel never
    # sees a bad one (test_kernel_direct_errors gives it one).
    x = numpy.zeros((3, 4), 'f')
    t = numpy.array([0, 4, 1], numpy.int32)

    def compute():
        with pytest.raises(Exception) as e:
            F.softmax_cross_entropy(x, t)
        return e.type
    errors = in_both_modes(compute, ())
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
def test_infinite_and_nan_scores(reduce, check):
    x = numpy.array([[0., 1., 2.],
                     [-numpy.inf, 0., 1.],
                     [numpy.inf, 0., 1.],
                     [0., numpy.nan, 1.]], numpy.float32)
    t = numpy.array([2, 1, 0, 2], numpy.int32)
    with numpy.errstate(invalid='ignore'):
        check(x, t, reduce=reduce)
