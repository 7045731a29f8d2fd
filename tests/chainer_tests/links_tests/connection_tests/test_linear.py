import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import initializers
from chainer.links.connection import linear


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_forward_matches_numpy(dtype):
    with chainer.using_config('dtype', dtype):
        link = linear.Linear(3, 2, initial_bias=_x(2, dtype=dtype, seed=2))
    assert link.W.dtype == dtype and link.b.dtype == dtype
    x = _x(4, 3, dtype=dtype)
    y = link(x)
    expected = x.astype(numpy.float64).dot(
        link.W.array.astype(numpy.float64).T) + link.b.array
    tol = 1e-2 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(y.array, expected, rtol=tol, atol=tol)
    assert y.dtype == dtype


def test_parameter_shapes_and_default_init():
    numpy.random.seed(0)
    link = linear.Linear(30, 20)
    assert link.W.shape == (20, 30)
    assert link.b.shape == (20,)
    assert (link.b.array == 0).all()
    # LeCunNormal: standard deviation sqrt(1 / in_size).
    numpy.testing.assert_allclose(
        link.W.array.std(), numpy.sqrt(1 / 30), rtol=0.1)
    assert [name for name, _ in link.namedparams()] == ['/W', '/b']


def test_lazy_initialization():
    link = linear.Linear(4)
    assert link.in_size is None and link.out_size == 4
    assert link.W.array is None
    assert link.b.shape == (4,)
    y = link(_x(2, 3, 2))
    assert link.W.shape == (4, 6)
    assert y.shape == (2, 4)


def test_lazy_initialization_with_batch_axes():
    link = linear.Linear(None, 5, nobias=True)
    y = link(_x(2, 3, 4), n_batch_axes=2)
    assert link.W.shape == (5, 4)
    assert link.b is None
    assert y.shape == (2, 3, 5)
    numpy.testing.assert_allclose(
        y.array, F.linear(_x(2, 3, 4), link.W, n_batch_axes=2).array)


def test_initializers():
    W = _x(2, 3)
    link = linear.Linear(3, 2, initialW=W, initial_bias=0.5)
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(link.b.array, [0.5, 0.5])
    link = linear.Linear(3, 2, initialW=initializers.One())
    numpy.testing.assert_array_equal(link.W.array, numpy.ones((2, 3)))


def test_from_params():
    W = _x(2, 3)
    b = _x(2, seed=1)
    link = linear.Linear.from_params(chainer.Variable(W), b)
    assert (link.in_size, link.out_size) == (3, 2)
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(link.b.array, b)
    assert linear.Linear.from_params(W, nobias=True).b is None
    with pytest.raises(ValueError):
        linear.Linear.from_params(W, _x(3))


def test_str_like_original():
    assert str(linear.Linear(3, 4)) == \
        'Linear(in_size=3, out_size=4, nobias=False)'
    assert str(linear.Linear(5)) == \
        'Linear(in_size=None, out_size=5, nobias=False)'
    assert str(linear.Linear(3, 2, nobias=True)) == \
        'Linear(in_size=3, out_size=2, nobias=True)'


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = linear.Linear(3, 2, initial_bias=_x(2, seed=3))
    gradient_check.check_backward(
        link, _x(4, 3, dtype=numpy.float64),
        _x(4, 2, dtype=numpy.float64, seed=1), params=(link.W, link.b))


@pytest.mark.gpu
def test_gpu():
    link = linear.Linear(3, 2)
    x = _x(4, 3)
    expected = link(x).array
    link.to_gpu()
    from chainer.backends import cuda
    y = link(cuda.to_gpu(x))
    numpy.testing.assert_allclose(cuda.to_cpu(y.array), expected, rtol=1e-5)
