import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check


DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def _tol(dtype):
    # Numerical gradients in float64; float16 backward rounds more.
    if dtype == numpy.float16:
        return {'dtype': numpy.float64, 'atol': 1e-2, 'rtol': 1e-2}
    return {'dtype': numpy.float64}


@pytest.mark.parametrize('shape', [(3, 2), ()])
@pytest.mark.parametrize('dtype', DTYPES)
def test_single_input(shape, dtype):
    x = numpy.random.uniform(-1, 1, shape).astype(dtype)
    y = F.identity(chainer.Variable(x))
    assert isinstance(y, chainer.Variable)
    assert type(y.creator).__name__ == 'Identity'
    assert y.array is x
    gy = numpy.random.uniform(-1, 1, shape).astype(dtype)
    gradient_check.check_backward(F.identity, x, gy, **_tol(dtype))
    gradient_check.check_double_backward(
        F.identity, x, gy, numpy.random.uniform(-1, 1, shape).astype(dtype),
        **_tol(dtype))


@pytest.mark.parametrize('dtype', DTYPES)
def test_multiple_inputs(dtype):
    xs = tuple(numpy.random.uniform(-1, 1, (2, 3)).astype(dtype)
               for _ in range(3))
    ys = F.identity(*xs)
    assert isinstance(ys, tuple)
    assert len(ys) == 3
    assert ys[0].creator is ys[2].creator
    for x, y in zip(xs, ys):
        assert y.array is x
    gys = tuple(numpy.random.uniform(-1, 1, (2, 3)).astype(dtype)
                for _ in range(3))
    gradient_check.check_backward(F.identity, xs, gys, **_tol(dtype))


def test_gradient_passes_through():
    x = chainer.Variable(numpy.array([1.0, 2.0], numpy.float32))
    y = F.identity(x)
    y.grad = numpy.array([3.0, 4.0], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [3.0, 4.0])


def test_one_of_several_outputs_gets_a_gradient():
    a = chainer.Variable(numpy.array([1.0, 2.0], numpy.float32))
    b = chainer.Variable(numpy.array([5.0], numpy.float32))
    ya, yb = F.identity(a, b)
    loss = F.sum(ya * 2)
    loss.backward()
    numpy.testing.assert_array_equal(a.grad, [2.0, 2.0])
    assert b.grad is None


def test_no_inputs():
    assert F.identity() == ()
