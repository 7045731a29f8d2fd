"""The compiled softmax and log-softmax against the NumPy path."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
import chainerx_cpp


pytestmark = pytest.mark.skipif(
    not chainerx_cpp.is_available(), reason='chainerx_cpp is not built')

_CASES = [
    # (shape, axis)
    ((4, 7), 1),
    ((64, 10), 1),
    ((3, 1000), 1),
    ((5, 6), 0),
    ((2, 5, 3, 4), 1),
    ((2, 5, 3, 4), -1),
    ((2, 5, 3, 4), 2),
    ((7,), 0),
    ((3, 1), 1),
    ((0, 5), 1),
    ((4, 0), 1),
]


def _tolerance(dtype):
    if dtype == numpy.float64:
        return {'atol': 1e-12, 'rtol': 1e-12}
    return {'atol': 1e-6, 'rtol': 1e-5}


def _gradients(func, x, gy_seed=0, ggx=None):
    # A computation of the output, the gradient and (with ggx) the second
    # gradient.
    def compute():
        v = chainer.Variable(x.copy())
        y = func(v)
        gy = numpy.random.RandomState(gy_seed).uniform(
            -1, 1, y.shape).astype(y.dtype)
        gx, = chainer.grad([y], [v], [chainer.Variable(gy)],
                           enable_double_backprop=ggx is not None)
        out = [y.array, gx.array]
        if ggx is not None:
            ggx_x, = chainer.grad([gx], [v], [chainer.Variable(ggx)])
            out.append(ggx_x.array)
        return out
    return compute


# The (log-)softmax kernels, forward and backward: of the arrays that are
# not empty.
_KERNELS = ('softmax_forward', 'softmax_backward')


@pytest.mark.parametrize('log', [False, True])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('case', _CASES, ids=str)
def test_matches_numpy_path(case, dtype, log, in_both_modes):
    shape, axis = case
    x = numpy.random.RandomState(1).uniform(-5, 5, shape).astype(dtype)
    func = F.log_softmax if log else F.softmax
    (y0, gx0), (y1, gx1) = in_both_modes(
        _gradients(lambda v: func(v, axis=axis), x),
        _KERNELS if x.size else ())
    assert y1.dtype == dtype and y1.shape == x.shape
    testing.assert_allclose(y0, y1, **_tolerance(dtype))
    testing.assert_allclose(gx0, gx1, **_tolerance(dtype))


@pytest.mark.parametrize('log', [False, True])
def test_non_contiguous_input(log, in_both_modes):
    x = numpy.random.RandomState(2).uniform(-3, 3, (6, 8, 5)).astype('f')
    x = x[:, ::2, ::-1].transpose(2, 1, 0)
    func = F.log_softmax if log else F.softmax
    (y0, gx0), (y1, gx1) = in_both_modes(
        _gradients(lambda v: func(v, axis=1), x), _KERNELS)
    testing.assert_allclose(y0, y1, **_tolerance(x.dtype))
    testing.assert_allclose(gx0, gx1, **_tolerance(x.dtype))


@pytest.mark.parametrize('log', [False, True])
def test_double_backprop(log, in_both_modes):
    x = numpy.random.RandomState(3).uniform(-2, 2, (3, 6)).astype('f')
    ggx = numpy.random.RandomState(4).uniform(-1, 1, x.shape).astype('f')
    func = F.log_softmax if log else F.softmax
    r0, r1 = in_both_modes(
        _gradients(lambda v: func(v, axis=1), x, ggx=ggx), _KERNELS)
    for a, b in zip(r0, r1):
        testing.assert_allclose(a, b, **_tolerance(x.dtype))


@pytest.mark.parametrize('spatial', [False, True])
@pytest.mark.parametrize('log', [False, True])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_infinite_and_nan_rows(dtype, log, spatial, in_both_modes):
    # A row whose maximum is infinite or NaN is NaN; -inf elements below a
    # finite maximum are not.
    x = numpy.array([[0., 1., 2.],
                     [-numpy.inf, 0., 1.],
                     [-numpy.inf, -numpy.inf, -numpy.inf],
                     [numpy.inf, 0., 1.],
                     [0., numpy.nan, 1.],
                     [3e38, 3e38, 3e38]], dtype)
    if spatial:
        # the rows along axis 1 of a (6, 3, 2) array
        x = numpy.stack([x, x[::-1]], axis=2)
    func = F.log_softmax if log else F.softmax
    with numpy.errstate(invalid='ignore'):
        ys = in_both_modes(lambda: func(x, axis=1).array,
                           ['softmax_forward'])
    numpy.testing.assert_allclose(ys[0], ys[1], **_tolerance(dtype))


def test_kernel_direct_errors():
    kernels = chainerx_cpp.get_kernels()
    x = numpy.zeros((2, 3), 'f')
    with pytest.raises(ValueError):
        kernels.softmax_forward(x, 2, False)
    with pytest.raises(ValueError):
        kernels.softmax_forward(numpy.asfortranarray(x.T), 1, False)
    with pytest.raises(ValueError):
        kernels.softmax_forward(x.astype('i'), 1, False)
    with pytest.raises(ValueError):
        kernels.softmax_backward(x, numpy.zeros((3, 2), 'f'), 1, False)


@pytest.mark.parametrize('axis', [0, 1])
def test_float32_softmax_rounds_as_the_numpy_path(axis, in_both_modes):
    # Both paths round each exponential once from float64; with rows of
    # fewer than eight classes both sum them in order, so the results are
    # the same floats (NumPy 2's own float32 exp differs in about a third
    # of the elements).
    x = numpy.random.RandomState(0).normal(0, 3, (200, 7)).astype('f')
    x = x if axis == 1 else numpy.ascontiguousarray(x.T)
    ys = in_both_modes(lambda: F.softmax(x, axis=axis).array,
                       ['softmax_forward'])
    numpy.testing.assert_array_equal(ys[0], ys[1])
